"""The free verifier of the wmrl-static row (docs/trainer.md): for each program listed in task.json
under "programs", says whether it compiles and whether every toolkit constructor it calls takes the
keywords it is given. The programs are parsed and compiled, never executed, so one interpreter can
check any number of them. Prints one JSON list, in order: {"ok": true} or {"ok": false, "reason": ...}.
"""
import ast
import inspect
import json

import toolkit


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


def check(source):
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


with open('task.json', encoding='utf-8') as f:
    programs = json.load(f)['programs']
print(json.dumps([check(p) for p in programs]))
