#!/usr/bin/env python3
"""tests/diff/atoms.txt: CuTe's MMA and copy atoms, and tiled MMAs, as CuTe C++ prints them.

Builds tests/gen/gen_atoms.cpp against the CUTLASS headers (host only),
runs it, and writes one line per field of each atom in lyt's diff format,
the `_` static markers of CuTe's print removed.

usage: gen_atoms.py [--cutlass /tmp/cutlass] [--cuda-include DIR] [--commit SHA] [--out FILE]
"""
import argparse
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutlass", default="/tmp/cutlass")
    ap.add_argument("--cuda-include", default="/usr/local/cuda-13.0/include")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "diff", "atoms.txt"))
    a = ap.parse_args()
    exe = os.path.join(tempfile.mkdtemp(), "gen_atoms")
    subprocess.run(["g++", "-std=c++17", "-O0", "-I" + os.path.join(a.cutlass, "include"),
                    "-I" + a.cuda_include, "-I" + os.path.join(a.cuda_include, "cccl"),
                    os.path.join(HERE, "gen_atoms.cpp"), "-o", exe], check=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    strip = re.compile(r"(?<![\w@])_(?=-?\d)")
    lines = ["# CuTe's MMA atoms (MMA_Traits: Shape_MNK, ThrID, ALayout, BLayout, CLayout) and copy atoms "
             "(Copy_Traits: ThrID, SrcLayout, DstLayout, RefLayout) as CuTe C++ "
             "prints them (CUTLASS %s), via tests/gen/gen_atoms.py" % a.commit, '#! import "cute.lyt"']
    n = 0
    keys = {"mma": ("shape_mnk", "thr_id", "a_layout", "b_layout", "c_layout"),
            "copy": ("thr_id", "src_layout", "dst_layout", "ref_layout")}
    fields_n = 0
    tiled = parts = tcopies = views = lays = 0
    for row in out.splitlines():
        kind, name, *fields = row.split("|")
        if kind == "lay":  # name is the lyt expression; CuTe's layout (a fragment, a retiled one)
            lays += 1
            lines.append("%s => %s" % (name, strip.sub("", fields[0])))
            continue
        if kind == "view":  # name is the lyt expression; CuTe's tensor layout and data offset
            views += 1
            lines.append("%s.layout => %s" % (name, strip.sub("", fields[0])))
            lines.append("%s.offset => %s" % (name, fields[1]))
            continue
        if kind == "tcopy":  # name is the lyt expression that builds the TiledCopy
            tcopies += 1
            lines.append("%s.tiler => %s" % (name, strip.sub("", fields[0])))
            lines.append("get_layout_s_tv(%s) => %s" % (name, strip.sub("", fields[1])))
            lines.append("get_layout_d_tv(%s) => %s" % (name, strip.sub("", fields[2])))
            continue
        if kind == "part":  # name is the lyt expression of the partition
            parts += 1
            lines.append("%s.layout => %s" % (name, strip.sub("", fields[0])))
            lines.append("%s.offset => %s" % (name, strip.sub("", fields[1])))
            continue
        if kind == "tiled":  # name is the lyt expression that builds the TiledMMA
            tiled += 1
            lines.append("tile_size(%s) => %s" % (name, strip.sub("", fields[0])))
            for f, val in zip(("c", "a", "b"), fields[1:]):
                lines.append("get_layout_%s_tv(%s) => %s" % (f, name, strip.sub("", val)))
            continue
        n += 1
        for key, val in zip(keys[kind], fields):
            lines.append('%s_atom("%s").%s => %s' % (kind, name, key, strip.sub("", val)))
            fields_n += 1
    lines.insert(1, "# %d atoms, %d fields; %d tiled MMAs (tile size, C, A and B TV layouts); %d thread partitions "
                    "(layout and offset); %d tiled copies (tiler, S and D TV layouts); %d tensor views (local_tile, local_partition, "
                    "partition_S/D: layout and offset); %d register fragments and retiled fragments "
                    "(partition_fragment_C/A/B, retile_S/D)" % (n, fields_n, tiled, parts, tcopies, views, lays))
    open(a.out, "w").write("\n".join(lines) + "\n")
    print(n, "atoms")


if __name__ == "__main__":
    main()
