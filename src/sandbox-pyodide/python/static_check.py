"""The free verifier of the wmrl-static row (docs/trainer.md): for each program listed in task.json
under "programs", says whether it compiles and whether every toolkit constructor it calls takes the
keywords it is given. The programs are parsed and compiled, never executed, so one interpreter can
check any number of them. Prints one JSON list, in order: {"ok": true} or {"ok": false, "reason": ...}.

The verifier has limits of its own (task.json's "limits", set in src/training/static-checks.ts),
checked on the tokens before anything parses: a source over max_source_bytes, code nested deeper
than max_depth (expressions on a line, plus indented blocks and elif chains across lines: CPython's
parser and compiler recurse per level, and a thousand or so levels overflow Pyodide's stack, which
kills the interpreter), or an f-string with more than max_fstring_fields
fields (they compile in quadratic time) is rejected with its reason. Warnings are never printed
(a batch of strings with invalid escapes would otherwise fill the output cap), and any error is that program's own
answer, never its batch's.
"""
import ast
import inspect
import io
import json
import time
import tokenize
import warnings

import toolkit

# Tokens that nest the expression they follow or precede one level deeper in the tree.
_NESTING_OPS = {
    '+', '-', '*', '/', '//', '%', '**', '@', '<<', '>>', '&', '|', '^', '~', '<', '>', '<=', '>=',
    '==', '!=', '.', ':=', '(', '[', '{',
}
_NESTING_WORDS = {'not', 'and', 'or', 'in', 'is', 'if', 'else', 'lambda', 'await', 'yield'}
# Tokens after which the next expression starts afresh at the same level (a flat sequence).
_SEPARATORS = {',', ';', '='}


def _limit_problem(source, limits):
    """Why the source is beyond the verifier's limits, or None. Reads tokens only: nothing recurses."""
    size = len(source.encode('utf-8', 'surrogatepass'))
    if size > limits['max_source_bytes']:
        return 'too large to check: %d bytes, limit %d' % (size, limits['max_source_bytes'])
    # One level per open bracket or f-string: [chain, fields or None]. The depth estimate is the
    # chains plus the levels open. An f-string's fields sit side by side, so a field's brace opens a
    # level without lengthening the f-string's chain.
    levels = [[0, None]]
    # Statements nest across lines, where the count above starts afresh: one entry per open indented
    # block, the length of the elif chain at its level (each elif is an If inside the previous one's
    # orelse; 1,200 one-line elifs, 11 KB, overflowed Pyodide's stack). An else keeps the chain it
    # ends; any other statement starts a new one.
    blocks = [0]
    line_start = True
    deepest = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            kind, text = tokenize.tok_name[tok.type], tok.string
            if kind == 'INDENT':
                blocks.append(0)
            elif kind == 'DEDENT':
                if len(blocks) > 1:
                    blocks.pop()
            elif line_start and kind not in ('NL', 'COMMENT', 'NEWLINE', 'ENCODING'):
                line_start = False
                if kind == 'NAME' and text == 'elif':
                    blocks[-1] += 1
                elif not (kind == 'NAME' and text == 'else'):
                    blocks[-1] = 0
            top = levels[-1]
            if kind == 'NEWLINE':
                line_start = True
                levels = [[0, None]]
            elif kind.endswith('STRING_START'):  # f-strings and t-strings hold expressions
                top[0] += 1
                levels.append([0, 0])
            elif kind.endswith('STRING_END') or (kind == 'OP' and text in (')', ']', '}')):
                if len(levels) > 1:
                    levels.pop()
            elif kind == 'OP' and text in _SEPARATORS:
                top[0] = 0
            elif (kind == 'OP' and text in _NESTING_OPS) or (kind == 'NAME' and text in _NESTING_WORDS):
                if top[1] is not None and text == '{':
                    top[1] += 1
                    if top[1] > limits['max_fstring_fields']:
                        return 'an f-string with more than %d fields (line %d): too slow to check' % (limits['max_fstring_fields'], tok.start[0])
                else:
                    top[0] += 1
                if text in ('(', '[', '{'):
                    levels.append([0, None])
            statements = sum(blocks) + len(blocks) - 1
            depth = statements + sum(level[0] for level in levels) + len(levels)
            if depth > deepest:
                deepest = depth
                if deepest > limits['max_depth']:
                    what = 'an expression' if statements == 0 else 'blocks, elif branches and expressions together'
                    return 'nested too deeply to check: %s over %d levels deep (line %d; limit %d)' % (what, limits['max_depth'], tok.start[0], limits['max_depth'])
    except (tokenize.TokenError, SyntaxError):
        # compile() stops at the same point and says why; what came before it is within the limits
        pass
    return None


def _keywords(cls):
    """The keyword names a toolkit class takes, or None when it takes any (**kwargs) or cannot say."""
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _toolkit_names(tree):
    """Names the program binds to the toolkit module (import toolkit / import toolkit as tk)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == 'toolkit':
                    names.add(alias.asname or 'toolkit')
    return names


def check(source, limits):
    if not isinstance(source, str):
        return {'ok': False, 'reason': 'not a program: %s' % type(source).__name__}
    problem = _limit_problem(source, limits)
    if problem:
        return {'ok': False, 'reason': problem}
    try:
        tree = compile(source, 'program.py', 'exec', ast.PyCF_ONLY_AST)
        # some errors appear only when the tree is compiled to code (e.g. 'return' outside a function)
        compile(tree, 'program.py', 'exec')
    except SyntaxError as e:
        return {'ok': False, 'reason': 'does not compile: %s: %s (line %s)' % (type(e).__name__, e.msg, e.lineno)}
    except (ValueError, RecursionError, MemoryError) as e:
        return {'ok': False, 'reason': 'does not compile: %s: %s' % (type(e).__name__, e)}
    modules = _toolkit_names(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = node.func.value
        if not (isinstance(owner, ast.Name) and owner.id in modules):
            continue
        target = getattr(toolkit, node.func.attr, None)
        if not inspect.isclass(target) or any(k.arg is None for k in node.keywords):
            continue
        takes = _keywords(target)
        if takes is None:
            continue
        for k in node.keywords:
            if k.arg not in takes:
                return {'ok': False, 'reason': '%s(...) takes no keyword %r (line %d)' % (node.func.attr, k.arg, node.lineno)}
    return {'ok': True}


def judge(source, limits):
    """One program's answer, whatever happens while checking it."""
    started = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            answer = check(source, limits)
    except Exception as e:  # a bug of the verifier on this program rejects it alone
        answer = {'ok': False, 'reason': 'the verifier could not judge it: %s: %s' % (type(e).__name__, str(e)[:200])}
    took = time.perf_counter() - started
    if answer.get('ok') and took > limits['program_seconds']:
        answer = {'ok': False, 'reason': 'took %.1f s to check, limit %g s' % (took, limits['program_seconds'])}
    return answer


with open('task.json', encoding='utf-8') as f:
    request = json.load(f)
print(json.dumps([judge(p, request['limits']) for p in request['programs']]))
