"""``agent-probe serve-iperf``: the other end of the peer tests.

Runs ``iperf3 -s`` (restarted if it dies) and a tiny TCP listener on the RTT port that
accepts and closes connections, so RTT probes never disturb an iperf3 test in progress.
"""

from __future__ import annotations

import logging
import socket
import subprocess
import threading
import time

log = logging.getLogger("bwdoctor_probe")


class RttListener:
    """Accept-and-close on a TCP port; a connect() round trip is the RTT the client measures."""

    def __init__(self, bind: str, port: int) -> None:
        family = socket.AF_INET6 if ":" in bind else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((bind, port))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, name="rtt-listener", daemon=True)

    def start(self) -> RttListener:
        self._thread.start()
        return self

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # socket closed: shutting down
            conn.close()

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def serve(*, port: int, rtt_port: int, bind: str | None, binary: str, stop: threading.Event) -> int:
    """Serve until ``stop`` is set; exit status 1 when iperf3 cannot be run at all."""
    listener = None
    if rtt_port:
        try:
            listener = RttListener(bind or "0.0.0.0", rtt_port).start()
        except OSError as exc:
            log.error("cannot listen on RTT port %s: %s", rtt_port, exc.strerror or exc)
            return 1
    command = [binary, "-s", "-p", str(port)] + (["-B", bind] if bind else [])
    restarts: list[float] = []
    try:
        while not stop.is_set():
            try:
                # stderr goes to our stderr (the journal); a pipe nobody reads would stall iperf3 once full.
                process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
            except FileNotFoundError:
                log.error("%s not found: install iperf3", binary)
                return 1
            log.info("iperf3 server listening on port %s (RTT port %s)", port, rtt_port or "off")
            while not stop.wait(0.5) and process.poll() is None:
                pass
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                break
            now = time.monotonic()
            restarts = [t for t in restarts if now - t < 60] + [now]
            if len(restarts) > 5:
                log.error("iperf3 keeps exiting (status %s); giving up", process.returncode)
                return 1
            log.warning("iperf3 exited (status %s); restarting", process.returncode)
            stop.wait(1.0)
    finally:
        if listener is not None:
            listener.close()
    return 0
