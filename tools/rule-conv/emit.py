import sys
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from gen import gen
WHEN={'':'any','no_overflow':'no_overflow','no_overflow_int':'no_overflow_int','no_overflow_scalar_int':'no_overflow_scalar_int',
      'is_int':'int','is_float':'float','not_is_float':'not_float','is_uint':'uint','denominator_non_zero':'denominator_non_zero'}
def emit(path,fname,blocks,doc):
    lines,skipped=gen(path,fname,blocks)
    out=[f'/// {doc}', f'pub(super) fn {fname}() -> &\'static [Rule] {{',
         '    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();',
         '    RULES.get_or_init(|| {', '        [']
    for lhs,rhs,cond,when in lines:
        ws=[WHEN[w] for w in when.split('|')] if when else []
        wexpr='When::ALWAYS' if not ws else ' | '.join('When::'+w.upper() for w in ws)
        lhs=lhs.replace(' * ','*').replace(' / ','/')
        rhs=rhs.replace(' * ','*').replace(' / ','/')
        if cond is not None and cond.startswith('PROVE:'):
            c=cond[6:].replace(' * ','*').replace(' / ','/')
            out.append(f'            Rule::proved("{lhs}", "{rhs}", "{c}", {wexpr}),')
            continue
        g='None' if cond is None else f'Some(|b| {cond})'
        out.append(f'            Rule::when("{lhs}", "{rhs}", {g}, {wexpr}),')
    out+=['        ]','        .into_iter()','        .flatten()','        .collect()','    })','}','']
    return '\n'.join(out),skipped
if __name__=='__main__':
    src,sk=emit(sys.argv[1],sys.argv[2],[int(x) for x in sys.argv[3].split(',')],sys.argv[4])
    print(src)
    for s in sk: print('SKIP',s,file=sys.stderr)
