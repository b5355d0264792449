# lyt: a language for tensor layouts.
#
#   make               build build/lyt and build/liblyt.a
#   make test          build, then run the whole test suite
#   make SAN=1 test    the same under ASan+UBSan (in build-san/), with the cores'
#                      self-checks on (LYT_VERIFY_CORES: interp/stride/compose.c;
#                      LYT_VERIFY_TEMPLATES: interp/eval/template.c)
#   make SAN=thread tsan  states on threads under ThreadSanitizer (build-tsan/)
#   make CC=clang      any C11 compiler; warnings are errors
#   make bench         lyt against pycute (needs a CUTLASS checkout, see bench/)

CC      ?= cc
RE2C    ?= re2c
LEMON   ?= lemon
LEMPAR  ?= $(firstword $(wildcard /usr/share/lemon/lempar.c /usr/local/share/lemon/lempar.c) /usr/share/lemon/lempar.c)
OPT     ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wundef -Wmissing-prototypes -Wstrict-prototypes -Wpointer-arith
ifeq ($(SAN),1)
BUILD   ?= build-san
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
           -DLYT_VERIFY_CORES -DLYT_VERIFY_TEMPLATES
else ifeq ($(SAN),thread)
BUILD   ?= build-tsan
SANFLAGS = -fsanitize=thread -fno-omit-frame-pointer
else
BUILD   ?= build
SANFLAGS =
endif
GEN      = $(BUILD)/gen
STDLIB_DIR ?= $(CURDIR)/stdlib
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -I. -I$(GEN) -DLYT_STDLIB_DIR='"$(STDLIB_DIR)"'
# Tests and examples include the public header as a host does: "lyt.h".
TESTFLAGS = -Iinterp
# Hidden by default: the shared library exports only what lyt.h marks LYT_API.
ALL_CFLAGS = $(WARN) -fvisibility=hidden $(OPT) $(SANFLAGS) $(CFLAGS)
LDLIBS_REPL = -ldl  # libedit is opened at run time (interp/main.c)

# The layout families (docs/architecture.md): each folder of interp/ holds
# a family's core, its builtins and its value kinds. Every C file of
# interp/ and its folders and of backends/ goes into the library, except
# the command line.
FAMILIES = base eval stride linear axe nested axisinfo interop picture
LIBSRC = $(filter-out interp/main.c,$(wildcard interp/*.c)) \
         $(foreach f,$(FAMILIES),$(wildcard interp/$(f)/*.c)) lang/build.c lang/parse.c lang/linekey.c \
         lang/unparse.c lang/image.c $(wildcard backends/*.c)
GENSRC = $(GEN)/lexer.c $(GEN)/parser.c $(GEN)/image.c
LIBOBJ = $(patsubst %.c,$(BUILD)/%.o,$(LIBSRC)) $(GEN)/lexer.o $(GEN)/parser.o $(GEN)/image.o
# The fuzz targets (tests/fuzz/fuzz_*.c), run by `make fuzz` and replayed
# over their corpus by `make test`.
FUZZ_TARGETS = eval parse api stride linear axe axisinfo gen texts
REPLAY = $(patsubst %,$(BUILD)/replay_%,$(FUZZ_TARGETS))

.PHONY: all test clean deps bench bench-linear valgrind gpu-test fuzz install uninstall embed tsan
all: $(BUILD)/lyt $(BUILD)/liblyt.a

# Missing generators or headers: one line that names the packages, before
# anything is built (not for the goals that need none of them).
ifeq ($(filter deps clean,$(MAKECMDGOALS)),)
ifeq ($(shell command -v $(RE2C) >/dev/null 2>&1 && command -v $(LEMON) >/dev/null 2>&1 && test -f $(LEMPAR) && test -f /usr/include/editline/readline.h && echo ok),)
$(error lyt: missing build tools: apt-get install -y re2c lemon libedit-dev (or: make deps))
endif
endif

deps:
	apt-get install -y re2c lemon libedit-dev

$(GEN)/lexer.c: lang/lexer.re lang/tokens.re lang/keywords.re $(GEN)/parser.h | $(GEN)
	$(RE2C) -W -Werror --no-generation-date --no-version -I lang -o $@ $<

# One Lemon run makes both files; naming both as targets of one rule would
# run it twice under -j, so the header follows from the C file.
$(GEN)/parser.c: lang/parser.y | $(GEN)
	cp lang/parser.y $(GEN)/parser.y
	$(LEMON) -q -T$(LEMPAR) -d$(GEN) $(GEN)/parser.y >/dev/null
	@test -f $(GEN)/parser.h

$(GEN)/parser.h: $(GEN)/parser.c
	@test -f $@

$(GEN):
	mkdir -p $@

# The stdlib's syntax trees, parsed when lyt is built (lang/image.h), by a
# tool that links the front end alone.
MKIMAGE_OBJ = $(BUILD)/lang/build.o $(BUILD)/lang/parse.o $(BUILD)/lang/linekey.o $(GEN)/lexer.o \
              $(GEN)/parser.o \
              $(patsubst %.c,$(BUILD)/%.o,$(wildcard interp/base/*.c))
$(BUILD)/mkimage: lang/mkimage.c lang/image.h $(MKIMAGE_OBJ)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.o,$^)

$(GEN)/image.c: $(BUILD)/mkimage $(wildcard stdlib/*.lyt) | $(GEN)
	$(BUILD)/mkimage $(sort $(wildcard stdlib/*.lyt)) > $@.tmp && mv $@.tmp $@


# The generated lexer/parser get the same warnings, minus ones Lemon trips,
# and NDEBUG: Lemon's assertions would abort the host on a broken table,
# and a library never aborts.
$(GEN)/%.o: $(GEN)/%.c $(GEN)/parser.h
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -DNDEBUG -Wno-unused-parameter -Wno-unused-variable -Wno-missing-prototypes -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.c $(GEN)/parser.h
	@mkdir -p $(dir $@)
	@$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/liblyt.a: $(LIBOBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/lyt: $(BUILD)/interp/main.o $(BUILD)/liblyt.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_REPL)

$(BUILD)/test_stride: tests/unit/test_stride.c tests/unit/harness.h $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_linear: tests/unit/test_linear.c tests/unit/harness.h $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_image: tests/unit/test_image.c tests/unit/harness.h tests/unit/trees.h $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_parse: tests/unit/test_parse.c tests/unit/harness.h tests/unit/trees.h $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_axe: tests/unit/test_axe.c tests/unit/harness.h $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_axisinfo: tests/unit/test_axisinfo.c tests/unit/harness.h $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_nested: tests/unit/test_nested.c tests/unit/harness.h $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_kernel: tests/unit/test_kernel.c tests/unit/harness.h $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_api_args: tests/unit/test_api_args.c $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_kinds: tests/unit/test_kinds.c $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_threads: tests/unit/test_threads.c $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -pthread -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_limits: tests/unit/test_limits.c $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_oom: tests/unit/test_oom.c $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/test_api: tests/unit/test_api.c $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

$(BUILD)/runner: tests/runner.c $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

test: all $(BUILD)/embed $(BUILD)/test_stride $(BUILD)/test_linear $(BUILD)/test_image $(BUILD)/test_parse $(BUILD)/test_axe $(BUILD)/test_axisinfo $(BUILD)/test_nested $(BUILD)/test_kernel $(BUILD)/test_kinds $(BUILD)/test_threads $(BUILD)/test_limits $(BUILD)/test_oom $(BUILD)/test_api $(BUILD)/test_api_args $(BUILD)/runner $(REPLAY)
	@sh tests/run.sh $(BUILD)

# Install: a build of its own (build-install/, position-independent, with
# the stdlib path of the installed copy), then the files under
# $(DESTDIR)$(PREFIX).
PREFIX ?= /usr/local
VERSION = 0.1.0
SOMAJOR = 0
IB = build-install
$(BUILD)/liblyt.so.$(VERSION): $(LIBOBJ)
	$(CC) -shared -Wl,-soname,liblyt.so.$(SOMAJOR) -o $@ $^

install:
	@rm -rf $(IB)  # objects carry the stdlib path of PREFIX: never reuse them
	@$(MAKE) -s BUILD=$(IB) STDLIB_DIR=$(PREFIX)/share/lyt/stdlib CFLAGS="$(CFLAGS) -fPIC" \
	  $(IB)/lyt $(IB)/liblyt.a $(IB)/liblyt.so.$(VERSION)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/share/lyt/stdlib $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(IB)/lyt $(DESTDIR)$(PREFIX)/bin/lyt
	install -m 644 $(IB)/liblyt.a $(DESTDIR)$(PREFIX)/lib/liblyt.a
	install -m 755 $(IB)/liblyt.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/liblyt.so.$(VERSION)
	ln -sf liblyt.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/liblyt.so.$(SOMAJOR)
	ln -sf liblyt.so.$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/liblyt.so
	install -m 644 interp/lyt.h $(DESTDIR)$(PREFIX)/include/lyt.h
	install -m 644 stdlib/*.lyt $(DESTDIR)$(PREFIX)/share/lyt/stdlib/
	install -m 644 docs/lyt.1 $(DESTDIR)$(PREFIX)/share/man/man1/lyt.1
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lyt.pc.in \
	  >$(DESTDIR)$(PREFIX)/lib/pkgconfig/lyt.pc
	@# into the live system (no DESTDIR), as root: refresh the loader's cache
	@# so liblyt.so.0 is found in a standard libdir (/usr/local/lib) at once
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/lyt $(DESTDIR)$(PREFIX)/lib/liblyt.a \
	  $(DESTDIR)$(PREFIX)/lib/liblyt.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/liblyt.so.$(SOMAJOR) \
	  $(DESTDIR)$(PREFIX)/lib/liblyt.so $(DESTDIR)$(PREFIX)/include/lyt.h \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig/lyt.pc $(DESTDIR)$(PREFIX)/share/man/man1/lyt.1
	rm -rf $(DESTDIR)$(PREFIX)/share/lyt

# The worked embedding, against the build tree.
embed: $(BUILD)/embed
$(BUILD)/embed: examples/embed/embed.c $(BUILD)/liblyt.a
	$(CC) $(ALL_CFLAGS) -Iinterp -o $@ $^

# libFuzzer targets (clang), each run FUZZ_SECONDS on a copy of its
# checked-in corpus by tests/fuzz/run.sh, which prints executions, exec/s,
# coverage and findings per target.
FUZZ_SECONDS ?= 60
FUZZ_SRC = $(LIBSRC) $(GENSRC)
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -DLYT_VERIFY_TEMPLATES
FUZZ_OBJ = $(patsubst %.c,$(BUILD)/fuzzobj/%.o,$(FUZZ_SRC))
FUZZ_BIN = $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_TARGETS))
# The library is compiled once for all targets (coverage without
# libFuzzer's main); each target links it with its own entry point.
$(BUILD)/fuzzobj/%.o: %.c $(GEN)/parser.h
	@mkdir -p $(dir $@)
	@clang $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN) -MMD -MP -c -o $@ $<
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) $(TESTFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer $(FUZZ_SAN) tests/fuzz/fuzz_$*.c $(FUZZ_OBJ) -o $@
fuzz: $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The same targets outside libFuzzer, with the build's compiler and
# sanitizers: `make test` replays the checked-in corpus (and every past
# finding kept in it) through each.
$(BUILD)/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/replay.c $(BUILD)/liblyt.a

# On a machine with an NVIDIA GPU and the CUDA driver: run every example and test
# kernel from its PTX and check every element and the bank conflicts.
gpu-test: all
	@LYT=$(BUILD)/lyt sh bench/gpu/prepare.sh $(BUILD)/gpu
	@sh tests/gpu/gpu_test.sh $(BUILD)/gpu/ex $(BUILD)/run_ptx

# Several states on several threads, and one thread interrupting another,
# under ThreadSanitizer: no data race (make SAN=thread tsan).
tsan: $(BUILD)/test_threads
	@TSAN_OPTIONS=halt_on_error=1 $(BUILD)/test_threads

# The command and the library under valgrind: no leak, no error.
VG = valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=9
valgrind: all $(BUILD)/runner $(BUILD)/embed $(BUILD)/test_api
	@for f in examples/*.lyt; do $(VG) $(BUILD)/lyt $$f >/dev/null || exit 1; done
	@$(VG) $(BUILD)/embed >/dev/null
	@$(VG) $(BUILD)/test_api >$(BUILD)/vg.log 2>&1 || { cat $(BUILD)/vg.log; exit 1; }
	@$(VG) $(BUILD)/lyt -e 'composition((6,2):(1,7), (3,2):(2,3))' 2>/dev/null; test $$? -eq 1
	@$(VG) $(BUILD)/runner golden $$(find tests/golden examples -name '*.lyt' | sort) >$(BUILD)/vg.log 2>&1 \
	  || { cat $(BUILD)/vg.log; exit 1; }
	@$(VG) $(BUILD)/runner errors $$(find tests/errors -name '*.txt' | sort) >$(BUILD)/vg.log 2>&1 \
	  || { cat $(BUILD)/vg.log; exit 1; }
	@echo "valgrind: no errors, no leaks"

$(BUILD)/bench_linear: bench/bench_linear.c $(BUILD)/liblyt.a
	$(CC) $(CPPFLAGS) $(TESTFLAGS) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^)

bench-linear: $(BUILD)/bench_linear
	$(BUILD)/bench_linear

PYCUTE ?= /tmp/cutlass/python
bench: all
	python3 bench/bench.py --lyt $(BUILD)/lyt --pycute $(PYCUTE)

clean:
	rm -rf build build-san build-clang build-tsan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
