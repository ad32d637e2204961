#!/usr/bin/env python3
"""tracev1_crafted.py [ORACLE]: the crafted old-format traces of test_tracev1_parser.c and
test_tracev1_reader.c, written to ./crafted-NAME.trace (header "go 1.21 trace", or
crafted-paths-1.N.trace for the converter-path traces), with Go's verdict for each when
ORACLE (gtroracle) is given: its exit status and first error line. The tests' byte strings
are these files (test_tracev1_parser.c's without the 16-byte header)."""
import subprocess
import sys
def uv(x):
    out=b''
    while True:
        b=x&0x7f; x>>=7
        if x: out+=bytes([b|0x80])
        else: out+=bytes([b]); return out
def ev(t,*vals):
    if len(vals)<=3:
        return bytes([t|((len(vals)-1)<<6)])+b''.join(uv(v) for v in vals)
    body=b''.join(uv(v) for v in vals)
    return bytes([t|(3<<6)])+uv(len(body))+body
def batch(p,ts): return bytes([1|(1<<6)])+uv(p)+uv(ts)
def string(i,s): return bytes([37])+uv(i)+uv(len(s))+s
def freq(f): return ev(2,f)
def stack(i,frames):
    vals=[i,len(frames)]
    for fr in frames: vals+=list(fr)
    body=b''.join(uv(v) for v in vals)
    return bytes([3|(3<<6)])+uv(len(body))+body
def userlog(ts,id,key,stk,msg):
    body=b''.join(uv(v) for v in (ts,id,key,stk))
    return bytes([48|(3<<6)])+uv(len(body))+body+uv(len(msg))+msg
M = (1 << 64) - 1
# event numbers
PROCSTART,PROCSTOP,GOCREATE,GOSTART,GOEND,GOSYSCALL,GOSYSEXIT,GOSYSBLOCK,GOMAXPROCS=5,6,13,14,15,28,29,30,4
GOWAITING=31; USERTASKCREATE=45; USERREGION=47; STWSTART=9; STWDONE=10; GCSTART=7; GCDONE=8; GOUNBLOCK=21; GOBLOCK=20
base=batch(0,100)+freq(1000000000)
cases = {
 'empty': b'',
 'no_batch': freq(100),
 'batch_arity': bytes([1])+uv(0),
 'unknown_type': bytes([50]),
 'string_id0': batch(0,1)+string(0,b'x')+freq(5),
 'string_dup': batch(0,1)+string(1,b'x')+string(1,b'y')+freq(5),
 'string_len0': batch(0,1)+bytes([37])+uv(1)+uv(0)+freq(5),
 'string_big': batch(0,1)+bytes([37])+uv(1)+uv(1000001),
 'pid_big': batch(1<<31,1),
 'freq_zero': batch(0,1)+freq(0),
 'no_freq': batch(0,1)+ev(PROCSTART,1,7),
 'stack_frames': base+stack(1,[(1,2,3,4)]*2)[:0]+bytes([3|(3<<6)])+uv(2)+uv(1)+uv(1001),
 'stack_arity': base+bytes([3|(3<<6)])+uv(3)+uv(1)+uv(1)+uv(5),
 'len_prefix_big': base+bytes([45|(3<<6)])+uv(2049),
 'arg_eof': base+bytes([PROCSTART|(1<<6)])+uv(1),
 'wrong_args': base+ev(PROCSTART,1),
 'proc_stop': base+ev(PROCSTOP,1),
 'proc_twice': base+ev(PROCSTART,1,7)+ev(PROCSTART,1,7),
 'no_order': base+ev(PROCSTART,1,7)+ev(GOSTART,1,5,3),
 'stray_exit': base+ev(PROCSTART,1,7)+ev(GOCREATE,1,5,0,0)+ev(GOSTART,1,5,1)+ev(GOSYSEXIT,1,5,2,1000),
 'task_conflict': base+ev(PROCSTART,1,7)+ev(GOCREATE,1,5,0,0)+ev(GOSTART,1,5,1)+ev(USERTASKCREATE,1,9,0,0,0)+ev(USERTASKCREATE,1,9,0,0,0),
 'region_mode': base+ev(PROCSTART,1,7)+ev(GOCREATE,1,5,0,0)+ev(GOSTART,1,5,1)+ev(USERREGION,1,0,7,0,0),
 'stw_twice': base+ev(STWSTART,1,0)+ev(STWSTART,1,0),
 'gc_end': base+ev(GCDONE,1),
 'ok_small': base+string(1,b'main')+string(2,b'main.go')+stack(3,[(0x1000,1,2,10)])+ev(PROCSTART,1,7)+ev(GOCREATE,1,5,3,3)+ev(GOMAXPROCS,1,4,3)+ev(GOSTART,1,5,1)+ev(GOSYSCALL,1,3)+ev(GOSYSBLOCK,1)+ev(GOSYSEXIT,1,5,2,150)+userlog(1,0,1,3,b'hello')+ev(PROCSTOP,1),
 'ok_sysexit_sort': base+ev(PROCSTART,1,7)+ev(GOCREATE,1,5,0,0)+ev(GOCREATE,1,6,0,0)+ev(GOMAXPROCS,1,4,0)+ev(GOSTART,1,5,1)+ev(GOSYSCALL,1,0)+ev(GOSYSBLOCK,1)+ev(GOSTART,1,6,1)+ev(GOSYSCALL,1,0)+ev(GOSYSBLOCK,1)+ev(33,1,4096)+ev(GOSYSEXIT,4,6,2,111)+ev(GOSYSEXIT,1,5,2,111)+ev(PROCSTOP,1),
 'exit_before_block': base+ev(PROCSTART,1,7)+ev(GOCREATE,1,5,0,0)+ev(GOSTART,1,5,1)+ev(GOSYSCALL,1,0)+ev(GOSYSBLOCK,50)+ev(GOSYSEXIT,1,5,2,120),
 'goend_running': base+ev(PROCSTART,1,7)+ev(GOEND,1),
 'cpu_args': batch(0,1)+bytes([49|(3<<6)])+uv(2)+uv(1)+uv(2),
}
GOSTARTLABEL=41; TIMERG=35; GOBLOCKNET=27; GOUNBLOCK=21; GOSTOP=16; GOSCHED=17; GOPREEMPT=18; GOSLEEP=19
GCSWEEPSTART=11; GCSWEEPDONE=12; MASTART=43; MADONE=44; HEAPGOAL=34; HEAPALLOC=33; USERTASKEND=46; CPU=49
GOBLOCKSEND=22; GOBLOCKRECV=23; GOBLOCKSELECT=24; GOBLOCKSYNC=25; GOBLOCKCOND=26; GOBLOCKGC=42; GOINSYSCALL=32
def cpu(ts,p,g,stk): 
    body=b''.join(uv(v) for v in (0,ts,p,g,stk))
    return bytes([CPU|(3<<6)])+uv(len(body))+body
def mk(ver):
    b = batch(0,100)+freq(1000000000)+string(1,b'lab')+string(2,b'f')+string(3,b'task')+stack(4,[(0x10,2,2,1)])
    b += ev(TIMERG,9)
    b += ev(PROCSTART,1,7)+ev(GOCREATE,1,5,4,4)+ev(GOCREATE,1,6,0,0)+ev(GOCREATE,1,9,0,0)+ev(GOWAITING,1,8)+ev(GOINSYSCALL,1,10) if False else b''
    b += ev(PROCSTART,1,7)+ev(GOCREATE,1,5,4,4)+ev(GOCREATE,1,6,0,0)+ev(GOCREATE,1,9,0,0)
    b += ev(GOMAXPROCS,1,4,4)
    b += ev(GOSTARTLABEL,1,5,1,1)+ev(GCSTART,1,0,4)+ev(STWSTART,1,0)+ev(STWDONE,1)+ev(GCSWEEPSTART,1,4)+ev(GCSWEEPDONE,1,100,50)
    b += ev(MASTART,1,4)+ev(MADONE,1)+ev(HEAPALLOC,1,1<<40)+ev(HEAPGOAL,1,4096)+ev(GCDONE,1)
    b += ev(USERTASKCREATE,1,3,0,3,4)+ev(USERTASKEND,1,3,4)+ev(USERTASKEND,1,77,4)
    b += ev(GOBLOCKNET,1,4)                               # g5 blocks on net
    b += ev(GOSTART,1,6,1)+ev(GOUNBLOCK,1,5,2,4)          # g6 unblocks g5 -> netpoll P
    b += ev(GOSCHED,1,4)+ev(GOSTART,1,5,3)+ev(GOPREEMPT,1,4)+ev(GOSTART,1,6,2)+ev(GOSLEEP,1,4)
    b += ev(GOSTART,1,9,1)+ev(GOUNBLOCK,1,6,3,4)+ev(GOSTOP,1,4)   # g9 = timer goroutine unblocks g6
    b += ev(GOSTART,1,5,4)+ev(GOBLOCKSEND,1,4)+ev(GOSTART,1,6,4)+ev(GOBLOCKCOND,1,4)
    b += ev(PROCSTOP,1)
    if ver >= 19: b += cpu(150,0,5,4)+cpu(140,2**64-1,0,4)
    return b


def main():
    oracle = sys.argv[1] if len(sys.argv) > 1 else None
    files = [("crafted-%s.trace" % n, b"go 1.21 trace\x00\x00\x00" + body) for n, body in cases.items()]
    files += [("crafted-paths-1.%d.trace" % v, b"go 1.%d trace\x00\x00\x00" % v + mk(v)) for v in (11, 19, 21)]
    for name, data in files:
        open(name, "wb").write(data)
        if oracle:
            o = subprocess.run([oracle, "validate"], input=data, capture_output=True)
            err = o.stderr.decode(errors="replace").splitlines()
            print("%s: exit %d %s" % (name, o.returncode, err[0] if err else ""))
        else:
            print(name)


main()
