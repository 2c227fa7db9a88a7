"""Run one program's source in a job folder and report what happened.

Interface (called by the sandbox worker in the browser and by the Node runner for trusted programs):

    run_program(source: str, workdir: str, output_cap: int = 65536) -> dict
        status:    'ok' | 'error'
        stdout:    captured standard output, at most output_cap characters (then a truncation note)
        stderr:    captured standard error, likewise capped
        traceback: the formatted exception (frames inside this runner dropped), or None
        seconds:   wall time of the program itself
        truncated: True when stdout or stderr passed output_cap and was cut

The program runs with fresh globals (a new module dict, __name__ == '__main__'), with the working
directory set to workdir (restored afterwards), and with `toolkit` importable. A program that calls
sys.exit(0) or sys.exit(None) counts as ok; any other exit code or exception is an error.
This runner is not a security boundary: isolation is the sandbox's job.
"""
import io
import os
import sys
import time
import traceback as _tb
import types


class _CappedWriter(io.TextIOBase):
    """A text stream that keeps the first `cap` characters and counts the rest."""

    def __init__(self, cap):
        self.cap = cap
        self.parts = []
        self.kept = 0
        self.dropped = 0

    def writable(self):
        return True

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError('write() argument must be str')
        room = self.cap - self.kept
        if room > 0:
            piece = s[:room]
            self.parts.append(piece)
            self.kept += len(piece)
            self.dropped += len(s) - len(piece)
        else:
            self.dropped += len(s)
        return len(s)

    def text(self):
        out = ''.join(self.parts)
        if self.dropped:
            out += '\n[output truncated: %d more characters]' % self.dropped
        return out


def _format_traceback(exc):
    # Drop the runner's own frames so the trace starts in the program.
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return ''.join(_tb.format_exception(type(exc), exc, tb))


def run_program(source, workdir, output_cap=65536, fresh_toolkit=False):
    """Execute `source` as __main__ inside `workdir`. fresh_toolkit: re-import toolkit modules first."""
    if fresh_toolkit:
        for name in [m for m in sys.modules if m == 'toolkit' or m.startswith('toolkit.')]:
            del sys.modules[name]
    out, err = _CappedWriter(output_cap), _CappedWriter(output_cap)
    old_out, old_err, old_cwd = sys.stdout, sys.stderr, os.getcwd()
    module = types.ModuleType('__main__')
    module.__dict__['__builtins__'] = __builtins__
    module.__file__ = os.path.join(workdir, 'program.py')
    saved_main = sys.modules.get('__main__')
    status, trace = 'ok', None
    start = time.perf_counter()
    try:
        os.chdir(workdir)
        sys.stdout, sys.stderr = out, err
        sys.modules['__main__'] = module
        code = compile(source, 'program.py', 'exec')
        exec(code, module.__dict__)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            status, trace = 'error', _format_traceback(exc)
    except BaseException as exc:  # noqa: B036 - a KeyboardInterrupt (timeout) is reported, not raised
        status, trace = 'error', _format_traceback(exc)
    finally:
        seconds = time.perf_counter() - start
        sys.stdout, sys.stderr = old_out, old_err
        if saved_main is not None:
            sys.modules['__main__'] = saved_main
        try:
            os.chdir(old_cwd)
        except OSError:
            pass
    return {'status': status, 'stdout': out.text(), 'stderr': err.text(), 'traceback': trace,
            'seconds': seconds, 'truncated': bool(out.dropped or err.dropped)}
