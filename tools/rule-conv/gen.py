import re,sys
def split_args(s):
    args=[];depth=0;cur=''
    for ch in s:
        if ch=='(' : depth+=1
        if ch==')' : depth-=1
        if ch==',' and depth==0: args.append(cur.strip()); cur=''; continue
        cur+=ch
    args.append(cur.strip()); return args
def match_paren(s,i):
    depth=0
    for j in range(i,len(s)):
        if s[j]=='(':depth+=1
        elif s[j]==')':
            depth-=1
            if depth==0: return j
    return -1
def extract(path):
    src=open(path).read()
    src=re.sub(r'/\*.*?\*/','',src,flags=re.S)
    src=re.sub(r'//[^\n]*','',src)
    body=src[src.index('Expr Simplify::visit('):]
    # Guards: for each rewrite, the conditions written in front of it inside each
    # enclosing parenthesised group (up to the previous rewrite in that group).
    opens=[]
    pairs={}
    for i,ch in enumerate(body):
        if ch=='(':
            opens.append(i)
        elif ch==')' and opens:
            pairs[opens.pop()]=i
    def guards_at(pos):
        g=set()
        for p,q in pairs.items():
            if p<pos<q:
                k=body.find('rewrite(',p)
                seg=body[p:k] if 0<=k<pos+1 else ''
                for name,pat in [('no_overflow_scalar_int',r'no_overflow_scalar_int\('),('no_overflow_int',r'no_overflow_int\('),('no_overflow',r'no_overflow\('),
                                 ('not_is_float',r'!\s*(op->type|ty)\.is_float\(\)'),('is_float',r'(?<!!)(op->type|ty)\.is_float\(\)'),('is_int',r'(op->type|ty)\.is_int\(\)'),
                                 ('is_uint',r'(op->type|ty)\.is_uint\(\)'),('denominator_non_zero',r'denominator_non_zero')]:
                    if re.search(pat,seg): g.add(name)
        return g
    ends=[m.start() for m in re.finditer(r'return (mutate\()?rewrite\.result',body)]
    out=[]
    for m in re.finditer(r'\brewrite\(',body):
        i=m.end()-1; j=match_paren(body,i)
        args=split_args(re.sub(r'\s+',' ',body[i+1:j]))
        pos=m.start()
        g=sorted(guards_at(pos))
        block=sum(1 for e in ends if e<pos)
        out.append((block,g,args))
    return out
UNSUP=re.compile(r'\bis_float\(|IRMatcher|broadcast|ramp|slice|transpose|lanes|can_prove|ty\.min|ty\.max|Overflow|h_|cast\(|likely|is_const\(|\bbitwise|abs\(')
def conv_cond(c):
    c=re.sub(r'!overflows\(([^()]*(\([^()]*\)[^()]*)*)\)',r'fits(\1)',c)
    c=re.sub(r'\bc(\d)\b',r'b.c(\1)',c)
    c=c.replace('is_min_value(b.c(0))','b.is_type_min(0)').replace('is_max_value(b.c(0))','b.is_type_max(0)')
    tok=r'(b\.c\(\d\)|\d+|\([^()]*\))'
    if re.search(tok+r'\s*%\s*'+tok,c): c=re.sub(tok+r'\s*%\s*'+tok,r'rem(\1, \2)',c)
    
    if re.search(r'[%/]|overflows|[a-z_]+\(',re.sub(r'b\.c\(\d\)|rem\(|quot\(|fits\(|b\.is_type_m(in|ax)\(','',c)): return None
    return c
def gen(path, name, blocks):
    rules=extract(path)
    lines=[];skipped=[]
    for block,g,args in rules:
        if block not in blocks: continue
        text=' ;; '.join(args)
        if len(args)==3 and re.fullmatch(r'!is_const\(([xyzwuv])\)',args[2].strip()):
            v=args[2].strip()[10]
            i='xyzwuv'.index(v)
            if not UNSUP.search(args[0]+args[1]):
                lines.append((args[0],args[1],f'b.wild({i}).is_some_and(|e| !ir::is_const(e))','|'.join(g) if g else ''))
                continue
        if len(args)==3 and re.fullmatch(r'can_prove\((.*), this\)',args[2].strip()) and not UNSUP.search(args[0]+args[1]):
            c=re.fullmatch(r'can_prove\((.*), this\)',args[2].strip()).group(1)
            lines.append((args[0],args[1],'PROVE:'+c,'|'.join(g) if g else ''))
            continue
        if UNSUP.search(text): skipped.append(text); continue
        lhs,rhs=args[0],args[1]
        cond=args[2] if len(args)>2 else None
        rc=None
        if cond:
            rc=conv_cond(cond)
            if rc is None: skipped.append(text); continue
        when='|'.join(g) if g else ''
        lines.append((lhs,rhs,rc,when))
    return lines,skipped
if __name__=='__main__':
    path,name=sys.argv[1],sys.argv[2]
    blocks=[int(x) for x in sys.argv[3].split(',')]
    lines,skipped=gen(path,name,blocks)
    for l in lines: print(l)
    print('SKIPPED',len(skipped),file=sys.stderr)
    for s in skipped: print('  ',s,file=sys.stderr)
