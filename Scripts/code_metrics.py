#!/usr/bin/env python3
"""Counts the figures the code-base review speaks of: lines per module, the longest functions,
files over 300 lines, README lines and the modules each product links.

Run from the package root: python3 Scripts/code_metrics.py [--json]
Function length is counted from the line with `func`/`init` to its closing brace, by brace depth
outside strings and comments; good enough for ranking, not a parser."""
import json, os, re, subprocess, sys

ROOT = os.getcwd()

def swift_files(folder):
    for base, _, names in os.walk(folder):
        for n in names:
            if n.endswith(".swift"):
                yield os.path.join(base, n)

def lines_of(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")

def strip(line, state):
    out, i = [], 0
    while i < len(line):
        if state["block"]:
            j = line.find("*/", i)
            if j < 0: return "".join(out)
            state["block"] = False; i = j + 2; continue
        if state["multi"]:
            j = line.find('"""', i)
            if j < 0: return "".join(out)
            state["multi"] = False; i = j + 3; continue
        c = line[i]
        if line.startswith("//", i): break
        if line.startswith("/*", i): state["block"] = True; i += 2; continue
        if line.startswith('"""', i): state["multi"] = True; i += 3; continue
        if c == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            i = j + 1; continue
        out.append(c); i += 1
    return "".join(out)

FUNC = re.compile(r"(?<![.\w])(func\s+[^\s(<]+|init[?!]?\s*[(<])")

def functions(path):
    # A declaration is pending until its body opens at its own depth; a protocol requirement
    # (no body) is dropped when the next declaration or the end of its scope comes first.
    rows, state, stack, depth, pending = [], {"block": False, "multi": False}, [], 0, None
    for n, raw in enumerate(lines_of(path), 1):
        code = strip(raw, state)
        m = FUNC.search(code)
        offset = 0
        if m:
            pending = (depth, m.group(0).replace("func", "").strip(" (<"), n)
            offset = m.end()
        for i, c in enumerate(code):
            if c == "{":
                if pending and depth == pending[0] and i >= offset:
                    stack.append(pending); pending = None
                depth += 1
            elif c == "}":
                depth -= 1
                if pending and depth < pending[0]: pending = None
                if stack and depth == stack[-1][0]:
                    d, name, start = stack.pop()
                    rows.append((n - start + 1, name, start))
    return rows

def main():
    modules = {}
    for top in ("Sources", "Tests"):
        for name in sorted(os.listdir(top)):
            folder = os.path.join(top, name)
            if os.path.isdir(folder):
                modules[f"{top}/{name}"] = sum(len(lines_of(p)) - 1 for p in swift_files(folder))
    big, funcs = [], []
    for p in swift_files("Sources"):
        count = len(lines_of(p)) - 1
        if count > 300: big.append((count, p))
        for length, name, start in functions(p):
            funcs.append((length, f"{p}:{start}", name))
    big.sort(reverse=True); funcs.sort(reverse=True)
    lengths = sorted(f[0] for f in funcs)
    readme = len(lines_of("README.md")) - 1
    result = {
        "cliLines": modules.get("Sources/headscan", 0),
        "cliTestLines": modules.get("Tests/CommandLineTests", 0),
        "sourceLines": sum(v for k, v in modules.items() if k.startswith("Sources/")),
        "testLines": sum(v for k, v in modules.items() if k.startswith("Tests/")),
        "filesOver300": len(big),
        "largestFiles": [f"{c} {p}" for c, p in big[:10]],
        "functions": len(funcs),
        "medianFunctionLines": lengths[len(lengths) // 2] if lengths else 0,
        "longestFunctions": [f"{l} {where} {name}" for l, where, name in funcs[:10]],
        "readmeLines": readme,
        "modules": modules,
    }
    if "--json" in sys.argv:
        print(json.dumps(result, indent=2))
        return
    for key in ("cliLines", "cliTestLines", "sourceLines", "testLines", "filesOver300", "functions",
                "medianFunctionLines", "readmeLines"):
        print(f"{key}: {result[key]}")
    print("largest files:"); [print("  " + s) for s in result["largestFiles"]]
    print("longest functions:"); [print("  " + s) for s in result["longestFunctions"]]

main()
