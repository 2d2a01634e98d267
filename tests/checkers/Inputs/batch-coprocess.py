# Drives `warplint occupancy --batch` as a co-process: writes one line, waits (10 s at
# most) for its answer, then writes the next. usage: batch-coprocess.py WARPLINT
import select
import subprocess
import sys

lines = ['{"arch":"sm_86","threads":1024,"registers":32}',
         '{"arch":"sm_89","threads":128,"registers":64}']
p = subprocess.Popen([sys.argv[1], "occupancy", "--batch"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE)
for n, line in enumerate(lines, 1):
    p.stdin.write(line.encode() + b"\n")
    p.stdin.flush()
    ready, _, _ = select.select([p.stdout], [], [], 10)
    if not ready:
        print("no answer to line %d within 10 s" % n)
        p.kill()
        sys.exit(1)
    print(p.stdout.readline().decode().rstrip())
p.stdin.close()
print("exit=%d" % p.wait())
