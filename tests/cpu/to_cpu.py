#!/usr/bin/env python3
"""to_cpu.py: a CUDA program as the host C++ compiler can build it against pipefy_cpu.h.

Each launch statement `NAME<<<GRID, BLOCK[, BYTES]>>>(ARGS);` becomes
`pipefy_cpu::launch(GRID, BLOCK, [=]() mutable { NAME(ARGS); }[, BYTES]);` (queued: it runs
when the program next calls the runtime), pipefy's helpers for tensor copies and overlapped
launches the model's, an `extern __shared__` array a static one of 1 << 18 elements (256 KB
at least), and `main` becomes the program's
own `pipefy_program_main` behind a `main` that runs it once as written, or, when
PIPEFY_CPU_RUNS holds size lists separated by `|`, at each of them in each order of
PIPEFY_CPU_ORDERS (default "forward"), each run's output after a line `== SIZES ORDER` and
followed by `== rc N`: one process for what took one per run.
    to_cpu.py IN.cu OUT.cpp [IN.cu OUT.cpp ...]
    to_cpu.py --together OUT.cpp IN.cu...   the programs in one file, each in a namespace of
                                           its own, run one after another (`== P SIZES ORDER`)
"""
import re
import sys

DRIVER = r'''
#include <string>
#include <vector>
// to_cpu.py's driver: the programs' mains, then one main that runs them; a producer-warp
// program (ws) runs with the model's check that only the producer (its last 32 or 128
// threads) issues copies.
static int (*const pipefy_programs[])(int, char **) = {%s};
static const unsigned pipefy_program_ws[] = {%s};
int main(int argc, char **argv)
{
    const char *runs = getenv("PIPEFY_CPU_RUNS");
    pipefy_cpu::producer_only = pipefy_program_ws[0];
    if (!runs)
        return pipefy_programs[0](argc, argv);
    const char *orders_env = getenv("PIPEFY_CPU_ORDERS");
    std::string all(runs), orders(orders_env ? orders_env : "forward");
    int worst = 0;
    for (size_t p = 0; p < sizeof pipefy_programs / sizeof *pipefy_programs; p++)
        for (size_t at = 0; at <= all.size();) {
            size_t bar = all.find('|', at);
            std::string run = all.substr(at, bar == std::string::npos ? std::string::npos : bar - at);
            at = bar == std::string::npos ? all.size() + 1 : bar + 1;
            std::vector<std::string> words{argv[0]};
            for (size_t w = 0; w < run.size();) {
                size_t b = run.find_first_not_of(' ', w);
                if (b == std::string::npos)
                    break;
                size_t e = run.find(' ', b);
                words.push_back(run.substr(b, e == std::string::npos ? std::string::npos : e - b));
                w = e == std::string::npos ? run.size() : e;
            }
            for (size_t o = 0; o < orders.size();) {
                size_t e = orders.find(' ', o);
                std::string order = orders.substr(o, e == std::string::npos ? std::string::npos : e - o);
                o = e == std::string::npos ? orders.size() : e + 1;
                if (order.empty())
                    continue;
                setenv("PIPEFY_CPU_ORDER", order.c_str(), 1);
                std::vector<char *> args;
                for (auto &w : words)
                    args.push_back(&w[0]);
                args.push_back(nullptr);
                pipefy_cpu::producer_only = pipefy_program_ws[p];
                printf("== %%zu %%s %%s\n", p, run.c_str(), order.c_str());
                fflush(stdout);
                int rc = pipefy_programs[p]((int)args.size() - 1, args.data());
                printf("== rc %%d\n", rc);
                fflush(stdout);
                worst = rc ? rc : worst;
            }
        }
    return worst;
}
'''


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
    # pipefy's tensor-copy helpers (PTX): the block model's own
    text = re.sub(r'// pipefy: Hopper tensor copies \{\n.*?// \} pipefy: Hopper tensor copies\n',
                  '#include "pipefy_cpu_tma.h"\n', text, flags=re.S)
    # pipefy's helpers for overlapped launches: the model's (pipefy_cpu.h)
    text = re.sub(r'// pipefy: overlapped launches \{\n.*?// \} pipefy: overlapped launches\n', '', text, flags=re.S)
    text = re.sub(r'// pipefy: named barriers \{\n.*?// \} pipefy: named barriers\n', '', text, flags=re.S)
    text = re.sub(r'// pipefy: register hand-over \{\n.*?// \} pipefy: register hand-over\n', '', text, flags=re.S)
    text = re.sub(r'// pipefy: tile queues \{\n.*?// \} pipefy: tile queues\n', '', text, flags=re.S)
    # the size of the launch's dynamic shared memory, as pipefy's output reads it in PTX
    text = re.sub(r'asm volatile\("mov\.u32 %0, %%dynamic_smem_size;" : "=r"\((\w+)\)\);',
                  r'\1 = (unsigned)pipefy_cpu::dynamic_smem;', text)
    # dynamic shared memory: a static array of the largest size a block may ask for
    text = re.sub(r'extern\s+__shared__\s+([^;\[]*?)\b(\w+)\s*\[\s*\]\s*;', r'__shared__ \1\2[1 << 18];', text)
    # `__shared__ alignas(16) float`, as nvcc takes it: the attribute first, as C++ wants it
    text = re.sub(r'\b(__shared__|__constant__|__device__)(\s+)(alignas\((?:[^()\n]|\([^()\n]*\))*\))',
                  r'\3\2\1', text)
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
        smem = ', %s' % config[2] if len(config) > 2 else ''
        # (the arguments by value: the launch runs later, when the program next calls the runtime)
        out.append('%spipefy_cpu::launch(%s, %s, [=]() mutable { %s(%s); }%s)' % (lead, config[0], config[1], name, args, smem))
        pos = j + 1


# the mark of pipefy's producer-warp variant (ws) in a rewritten kernel
WS_MARK = 'const bool pipefy_producer = threadIdx.x >= pipefy_threads;'


def producer_threads(text):
    """The threads ws adds to the block: a warpgroup on sm_90a (setmaxnreg), else a warp; 0
    when the program has no producer."""
    if WS_MARK not in text:
        return '0'
    return '128' if 'the block without its producer warpgroup' in text else '32'


def program(text, k=None):
    """The program with its main renamed; in namespace pipefy_program_K when k is given, its
    #include lines returned apart (they go in front of every namespace)."""
    text, n = re.subn(r'^int main\(', 'int pipefy_program_main(', text, count=1, flags=re.M)
    if n == 0:
        sys.exit('to_cpu.py: no main')
    if k is None:
        return [], text
    includes = [l for l in text.split('\n') if l.startswith('#include')]
    body = '\n'.join(l for l in text.split('\n') if not l.startswith('#include'))
    return includes, 'namespace pipefy_program_%d {\n%s\n}  // namespace pipefy_program_%d\n' % (k, body, k)


if __name__ == '__main__':
    if sys.argv[1] == '--together':
        out, ins = sys.argv[2], sys.argv[3:]
        includes, bodies, ws = [], [], []
        for k, src in enumerate(ins):
            with open(src) as f:
                text = f.read()
            ws.append(producer_threads(text))
            inc, body = program(convert(text), k)
            includes += [i for i in inc if i not in includes]
            bodies.append(body)
        mains = ', '.join('pipefy_program_%d::pipefy_program_main' % k for k in range(len(ins)))
        with open(out, 'w') as f:
            # the includes first: a precompiled harness.cuh is used only when it comes first
            f.write('\n'.join(includes) + '\n' + ''.join(bodies) + DRIVER % (mains, ', '.join(ws)))
    else:
        for src, dst in zip(sys.argv[1::2], sys.argv[2::2]):
            with open(src) as f:
                text = f.read()
            _, body = program(convert(text))
            with open(dst, 'w') as f:
                f.write(body + DRIVER % ('pipefy_program_main', producer_threads(text)))
