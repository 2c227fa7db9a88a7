// The Python side of the sandbox: import blocks, an audit hook, and the per-run executor. None of this
// is a security boundary: a program can reach the guard's own state (frames, closures) and switch it
// off. The boundary is the worker (deleted globals, CSP) and a fresh interpreter per job (pool.ts).
// The guard is here so that the obvious routes (import js, socket, writing outside the run
// directory) fail at once with a clear message instead of some obscure error further on.

import { PROGRAM_FILE } from './protocol.ts';

/** Modules a program may not import (top-level names, or dotted prefixes). */
export const BLOCKED_MODULES: readonly string[] = [
  // Reaching JavaScript from Python.
  'js',
  'pyodide',
  'pyodide_js',
  '_pyodide',
  '_pyodide_core',
  'pyodide_http',
  'micropip',
  // Native code, processes, network.
  'ctypes',
  '_ctypes',
  'cffi',
  'subprocess',
  '_posixsubprocess',
  'multiprocessing',
  '_multiprocessing',
  'socket',
  '_socket',
  'ssl',
  '_ssl',
  'select',
  'selectors',
  'asyncio',
  'webbrowser',
  'urllib.request',
  'http.client',
  'ftplib',
  'smtplib',
  'imaplib',
  'poplib',
  'telnetlib',
  'xmlrpc',
  'mmap',
  'pty',
  'tty',
  'termios',
  'fcntl',
  'resource',
  'signal',
  '_signal',
  'faulthandler',
  'gc',
  'pdb',
];

/** Where a program runs; it reads its three CSV/JSON files here and writes predictions.csv. */
export const WORKDIR = '/home/pyodide/run';

/**
 * Defines `_sandbox_make_runner(workdir, blocked)` in a private namespace: it installs the audit hook
 * (inert until armed, so it can go into the memory snapshot before Pyodide's own post-restore
 * imports) and returns `(run, arm)`. `arm(reuse)`: with `reuse` false (a worker that serves one job,
 * the pool's default) nothing is saved or put back after the run, since the interpreter is thrown
 * away; with `reuse` true the interpreter state listed in `restore` is put back after every run.
 */
export const GUARD_SOURCE = String.raw`
def _sandbox_make_runner(workdir, blocked):
    import sys, os, builtins, time, traceback

    BLOCKED = frozenset(blocked)
    WORKDIR = workdir
    WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    DENY_PREFIXES = ('socket.', 'ctypes.', 'os.exec', 'os.spawn', 'os.posix_spawn', 'subprocess.',
                     'os.fork', 'pty.', 'mmap.', 'http.client.', 'urllib.Request', 'webbrowser.',
                     'ftplib.', 'smtplib.', 'imaplib.', 'poplib.', 'telnetlib.', 'nntplib.')
    DENY_EVENTS = frozenset({
        'os.system', 'os.kill', 'os.killpg', 'os.add_dll_directory', 'os.startfile',
        'gc.get_objects', 'gc.get_referrers', 'gc.get_referents', 'gc.freeze',
        'sys._current_frames', 'sys._current_exceptions', 'code.__new__', 'function.__new__',
        'sys.set_asyncgen_hooks_firstiter', 'sys.set_asyncgen_hooks_finalizer',
        'cpython.remote_debugger_script', 'sys.remote_exec',
    })
    PATH_EVENTS = frozenset({
        'os.remove', 'os.rename', 'os.rmdir', 'os.mkdir', 'os.chmod', 'os.chown', 'os.symlink',
        'os.link', 'os.truncate', 'os.utime', 'os.mkfifo', 'os.mknod', 'os.chflags', 'os.lchflags',
        'os.setxattr', 'os.removexattr', 'shutil.rmtree', 'shutil.copyfile', 'shutil.copymode',
        'shutil.copystat', 'shutil.copytree', 'shutil.move', 'shutil.chown', 'os.chdir',
    })

    def is_blocked(name):
        if not isinstance(name, str):
            return False
        parts = name.split('.')
        for i in range(1, len(parts) + 1):
            if '.'.join(parts[:i]) in BLOCKED:
                return True
        return False

    def writable_place(path):
        if isinstance(path, int):
            return True  # an already-open descriptor: its open was checked
        try:
            p = os.path.normpath(os.path.join(WORKDIR, os.fsdecode(path)))
        except Exception:
            return False
        return p == WORKDIR or p.startswith(WORKDIR + '/') or p == '/tmp' or p.startswith('/tmp/')

    armed = [False]

    def hook(event, args):
        if not armed[0]:
            return
        if event == 'import':
            if is_blocked(args[0]):
                raise ImportError('sandbox: import of ' + str(args[0]) + ' is blocked')
        elif event == 'open':
            path, mode, flags = args
            writes = (isinstance(mode, str) and any(c in mode for c in 'wax+')) or (
                isinstance(flags, int) and flags & WRITE_FLAGS)
            if writes and not writable_place(path):
                raise PermissionError('sandbox: writing outside the run directory is blocked: ' + str(path))
        elif event in DENY_EVENTS or event.startswith(DENY_PREFIXES):
            raise PermissionError('sandbox: ' + event + ' is blocked')
        elif event in PATH_EVENTS:
            if event == 'os.chdir':
                return
            for a in args:
                if isinstance(a, (str, bytes)) and not writable_place(a):
                    raise PermissionError('sandbox: ' + event + ' outside the run directory is blocked')

    class BlockFinder:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if is_blocked(name):
                raise ImportError('sandbox: import of ' + name + ' is blocked')
            return None

    sys.addaudithook(hook)
    base = {}

    def arm(reuse):
        # Called once Pyodide has finished its own start-up imports (after a snapshot restore).
        # Modules already loaded that lead to JavaScript or native code are hidden: None in
        # sys.modules makes a plain import fail; deleting the entry sends it through the audit hook.
        for name in list(sys.modules):
            if is_blocked(name):
                sys.modules[name] = None
        sys.meta_path.insert(0, BlockFinder)
        # Builtin modules can be created without an import (BuiltinImporter.create_module calls
        # _imp.create_builtin, which raises no audit event): gate it by name. The original lives
        # only in this closure; _imp itself may not be re-created.
        import _imp
        create_builtin = _imp.create_builtin

        def gated_create_builtin(spec):
            name = getattr(spec, 'name', None)
            if is_blocked(name) or name == '_imp':
                raise ImportError('sandbox: import of ' + str(name) + ' is blocked')
            return create_builtin(spec)

        _imp.create_builtin = gated_create_builtin
        base['reuse'] = bool(reuse)
        if not reuse:
            armed[0] = True
            return
        # The state a run may change, taken once; put back after every run (best effort only: a
        # reused interpreter is not isolated, see the module comment).
        base['modules'] = dict(sys.modules)
        base['builtins'] = dict(builtins.__dict__)
        base['path'] = list(sys.path)
        base['meta_path'] = list(sys.meta_path)
        base['environ'] = dict(os.environ)
        base['limit'] = sys.getrecursionlimit()
        base['streams'] = (sys.stdout, sys.stderr, sys.stdin)
        base['hooks'] = (sys.excepthook, sys.displayhook)
        # Module namespaces (shallow): a program that rebinds json.dumps or math.pi changes only
        # its own run. Objects mutated in place (class attributes, caches) are not covered.
        base['namespaces'] = [(m.__dict__, dict(m.__dict__)) for name, m in sys.modules.items()
                              if m is not None and name not in ('sys', 'builtins') and hasattr(m, '__dict__')
                              and isinstance(m.__dict__, dict)]
        armed[0] = True

    interrupt_type = KeyboardInterrupt

    def describe(exc):
        # Drop the runner's own frame so the traceback starts in program.py.
        tb = exc.__traceback__
        if tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        try:
            return ''.join(traceback.format_exception(type(exc), exc, tb))
        except BaseException:
            return type(exc).__name__ + ': ' + repr(exc.args)[:500]

    def restore():
        sys.stdout, sys.stderr, sys.stdin = base['streams']
        sys.excepthook, sys.displayhook = base['hooks']
        modules = base['modules']
        for name in list(sys.modules):
            if name not in modules:
                del sys.modules[name]
        sys.modules.update(modules)
        for ns, saved in base['namespaces']:
            if len(ns) != len(saved) or any(ns.get(k, ns) is not v for k, v in saved.items()):
                ns.clear()
                ns.update(saved)
        builtins.__dict__.clear()
        builtins.__dict__.update(base['builtins'])
        sys.path[:] = base['path']
        sys.meta_path[:] = base['meta_path']
        os.environ.clear()
        os.environ.update(base['environ'])
        sys.setrecursionlimit(base['limit'])
        os.chdir(WORKDIR)

    def run(source):
        if not armed[0]:
            raise RuntimeError('sandbox: guards not armed')
        os.chdir(WORKDIR)
        scope = {'__name__': '__main__', '__file__': '${PROGRAM_FILE}', '__builtins__': builtins}
        status = 'ok'
        described = None
        t0 = time.perf_counter()
        try:
            code = compile(source, '${PROGRAM_FILE}', 'exec')
            exec(code, scope)
        except SystemExit as e:
            if e.code not in (None, 0):
                status = 'error'
                described = 'SystemExit: ' + str(e.code)
        except MemoryError as e:
            status = 'memory'
            described = describe(e)
        except interrupt_type as e:
            status = 'interrupted'
            described = describe(e)
        except BaseException as e:
            status = 'error'
            described = describe(e)
        seconds = time.perf_counter() - t0
        if not base['reuse']:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except BaseException:
                pass
            return (status, described, seconds)
        scope.clear()
        for attempt in range(3):
            try:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                except BaseException:
                    pass
                restore()
                break
            except interrupt_type:
                status = 'interrupted'
        return (status, described, seconds)

    return (run, arm)
`;
