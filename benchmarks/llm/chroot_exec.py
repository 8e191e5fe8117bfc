"""Runs a program of the chroot it is started in (refgen/torch_env/run.sh sid chroot_exec.py
llama-bench ...) and prints the child's peak RSS on stderr as "peak_rss_kb N" after it exits,
with the child's exit status."""
import resource
import subprocess
import sys

status = subprocess.run(sys.argv[1:]).returncode
sys.stderr.write("peak_rss_kb %d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(status)
