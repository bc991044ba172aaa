#!/usr/bin/env python3
"""to_cpu.py: a CUDA program as the host C++ compiler can build it against pipefy_cpu.h.

Each launch statement `NAME<<<GRID, BLOCK[, ...]>>>(ARGS);` becomes
`pipefy_cpu::launch(GRID, BLOCK, [&] { NAME(ARGS); });`; nothing else changes.
    to_cpu.py IN.cu OUT.cpp
"""
import sys


def split_top(s):
    parts, depth, cur = [], 0, ''
    for ch in s:
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        if ch == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def convert(text):
    out, pos = [], 0
    while True:
        at = text.find('<<<', pos)
        if at < 0:
            out.append(text[pos:])
            return ''.join(out)
        start = max(text.rfind(c, 0, at) for c in ';{}\n') + 1
        name = text[start:at].strip()
        end = text.index('>>>', at)
        config = split_top(text[at + 3:end])
        i = text.index('(', end)
        depth, j = 0, i
        while True:
            depth += {'(': 1, ')': -1}.get(text[j], 0)
            if depth == 0:
                break
            j += 1
        args = text[i + 1:j]
        lead = text[start:at][:len(text[start:at]) - len(text[start:at].lstrip())]
        out.append(text[pos:start])
        out.append('%spipefy_cpu::launch(%s, %s, [&] { %s(%s); })' % (lead, config[0], config[1], name, args))
        pos = j + 1


if __name__ == '__main__':
    with open(sys.argv[1]) as f:
        text = f.read()
    with open(sys.argv[2], 'w') as f:
        f.write(convert(text))
