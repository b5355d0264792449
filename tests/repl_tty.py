# The REPL through a pseudo-terminal, as a person uses it: Ctrl-C drops the
# line being typed (and an unfinished statement) or stops running code, and
# the session goes on; history is saved across sessions; Tab completes
# builtins, the user's bindings and a namespace's names; :load and :reset.
#   python3 tests/repl_tty.py path/to/lyt
# Prints a line per check and "N passed, M failed".
import os, pty, re, select, sys, tempfile, time

LYT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else 'build/lyt')
TMP = tempfile.mkdtemp()
HIST = os.path.join(TMP, 'history')
passed = failed = 0

def session(keys):
    """Type each chunk once lyt is ready for it: after a chunk that ends a
    line, when the next prompt has appeared (a chunk starting with '~'
    starts code that runs until interrupted: no prompt to wait for), else
    when the output has settled. The transcript comes back without carriage
    returns, bells and terminal escape sequences."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ['LYT_HISTORY'] = HIST
        os.environ['TERM'] = 'xterm'
        os.chdir(TMP)
        os.execv(LYT, [LYT])
    out = b''
    def drain(prompt):
        nonlocal out
        start, last = len(out), time.time()
        end = time.time() + 20
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    d = os.read(fd, 4096)
                except OSError:
                    return
                if not d:
                    return
                out += d
                last = time.time()
            seen = re.sub(rb'\x1b\[[0-9;?]*[A-Za-z]', b'', out[start:]).rstrip(b'\r\x07')
            ready = seen.endswith(b'lyt> ') or seen.endswith(b'...> ') if prompt else True
            if ready and time.time() - last > 0.2:
                return
    drain(True)
    for k in keys:
        running = k.startswith('~')
        k = k.lstrip('~')
        os.write(fd, k.encode())
        drain(k.endswith('\n') and not running or k == '\x03')
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    _, status = os.waitpid(pid, 0)
    text = out.decode(errors='replace')
    text = re.sub(r'\x1b\[[0-9;?]*[A-Za-z]', '', text).replace('\x07', '').replace('\r', '')
    return text, status

def check(name, want, got):
    global passed, failed
    if want in got:
        passed += 1
        print('PASS', name)
    else:
        failed += 1
        print('FAIL %s\n--- wanted (in)\n%s\n--- got\n%s' % (name, want, got))

open(os.path.join(TMP, 'defs.lyt'), 'w').write('loaded = 42\n')
t, st = session(['x = 5\n', 'abc', '\x03', 'x + 1\n', '(1,\n', '\x03', 'x\n',
                 '~while true {}\n', '\x03', 'x * 2\n', 'g = fn(y) =\n', 'y + 1\n', 'g\n', 'myvar = 7\n', 'myv\t\n',
                 'import "triton" as tt\n', 'tt.slice_l\t(1, tt.blocked((1,1),(4,8),(1,1),(1,0))).dim\n',
                 'compositi\t(4:1, 2:1)\n', ':load defs.lyt\n', 'loaded\n', ':reset\n', 'x\n', ':quit\n'])
check('Ctrl-C drops the typed line', 'lyt> abc\nlyt> x + 1\n6\n', t)
check('Ctrl-C drops an unfinished statement', 'lyt> (1,\n...> \nlyt> x\n5\n', t)
check('Ctrl-C stops running code, the session goes on', 'error: interrupted\nwhile true {}\n      ^\nlyt> x * 2\n10\n', t)
check('a function expression continues on the next line, and echoes as its definition',
      'lyt> g = fn(y) =\n...> y + 1\nlyt> g\nfn(y) = y + 1\n', t)
check('Tab completes a binding', 'lyt> myvar \n7\n', t)
check('Tab completes a namespace\'s name', 'lyt> tt.slice_layout (1, tt.blocked((1,1),(4,8),(1,1),(1,0))).dim\n1\n', t)
check('Tab completes a builtin', 'lyt> composition (4:1, 2:1)\n2:1\n', t)
check(':load runs a file', 'lyt> loaded\n42\n', t)
check(':reset forgets the bindings', ":reset\nlyt> x\n<repl>:1:1: error: unknown name 'x'", t)
check('the session ends normally', 'status 0', 'status %d' % st)
# a second session: the Up arrow brings back the first session's lines
# (x, loaded, then the composition; commands such as :load are not kept)
t, st = session(['\x1b[A\x1b[A\x1b[A', '\n', ':quit\n'])
check('history from the last session', 'composition (4:1, 2:1)\n2:1\n', t)
print('%d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
