"""What the server benchmarks share: starting `mapraster serve` on a free port, its resident memory and the bytes
its caches hold (`/metrics`). Imported by soak.py, memory-bursts.py and connections.py."""
import re
import subprocess
import sys
import urllib.request


def start(binary, *options):
    """`binary serve --port 0 --quiet OPTIONS...` started and its port read from its first lines:
    (process, port); exits the script when it does not start."""
    server = subprocess.Popen([binary, "serve", "--port", "0", "--quiet", *options],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for _ in range(400):
        match = re.search(r"serving http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
        if match:
            return server, int(match.group(1))
    server.kill()
    sys.exit("the server did not start")


def rss_mb(pid):
    """The resident memory of process `pid` in MB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


def cached_mb(port):
    """The bytes the server's caches hold (responses, metatiles, decoded vector tiles; /metrics), in MB."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=60) as response:
        text = response.read().decode()
    total = 0
    for name in ("mapraster_cache_bytes", "mapraster_metatile_cache_bytes", "mapraster_decoded_tile_bytes"):
        match = re.search(rf"^{name} (\d+)$", text, re.M)
        total += int(match.group(1)) if match else 0
    return total / (1 << 20)
