"""``agent-probe``: ``collect`` one pass, ``run`` and report in a loop, ``serve-iperf`` for peers.

Bad flags, environment or config file end with one ``agent-probe: error: ...`` line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from bwdoctor_probe import __version__
from bwdoctor_probe.config import CLOUD_CHOICES, ProbeConfig, load_config
from bwdoctor_probe.errors import ConfigError

log = logging.getLogger("bwdoctor_probe")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line, not argparse's usage block: scripts and journals read this."""
        self.exit(2, f"agent-probe: error: {message} (see agent-probe {self._sub_name()}--help)\n")

    def _sub_name(self) -> str:
        parts = self.prog.split()
        return f"{parts[-1]} " if len(parts) > 1 else ""


def _common(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add("--config", type=Path, help="YAML config file (default: $AGENT_PROBE_CONFIG)")
    add("--node-id", help="node name reported as node.id (default: hostname)")
    add("--cluster", help="cluster the node belongs to (fact node.cluster)")
    add("--region")
    add("--zone")
    add("--rack")
    add("--leaf-switch", help="the leaf switch the training NIC is cabled to (fact node.leaf_switch; else LLDP)")
    add("--rail", help="the rail the training NIC is on (fact node.rail)")
    add("--cloud-metadata", choices=CLOUD_CHOICES, help="read placement from cloud metadata (default off)")
    add("--peers", help="comma-separated peers to measure with iperf3 (HOST[:PORT],...)")
    add("--window", dest="window_s", type=float, help="sampling window in seconds (default 5)")
    add("--nic", help="interface that carries training traffic (default: the default route's)")
    add("--nic-speed-gbps", type=float, help="the link's speed, when sysfs cannot tell (virtual NICs)")
    add("--nic-max-speed-gbps", type=float,
        help="the NIC's rating (fastest supported mode), when ethtool cannot tell; compared with the negotiated speed")
    add("--no-gpu", dest="gpu", action="store_false", default=None, help="skip NVML")
    add("--iperf-port", type=int, help="peers' iperf3 port (default 5201)")
    add("--rtt-port", type=int, help="peers' RTT port, 0 = off (default 5202)")
    add("--iperf-duration", dest="iperf_duration_s", type=float, help="seconds per iperf3 test (default 2)")
    add("--iperf-bitrate", help="cap each iperf3 test, e.g. 2G")
    add("--nccl-tests-output", type=Path, help="all_reduce_perf output to read")
    add("--nccl-log", type=Path, help="NCCL_DEBUG=INFO log to read")
    add("--training-log", type=Path, help="training log to read step times from")
    add("--step-time-regex", help="regular expression whose group (?P<s>) or (?P<ms>) is the step time")
    add("-v", "--verbose", action="store_true", help="log more")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="agent-probe", description="Reports facts about this GPU node to Bandwidth Doctor.")
    parser.add_argument("--version", action="version", version=f"agent-probe {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    collect = commands.add_parser("collect", help="one collection pass, printed")
    _common(collect)
    collect.add_argument("--format", choices=("json", "text"), default=None,
                         help="json for machines, text for people (default: text on a terminal)")

    run = commands.add_parser("run", help="collect and report to the service in a loop")
    _common(run)
    run.add_argument("--server", help="service URL (or AGENT_PROBE_SERVER)")
    run.add_argument("--token", help="probe token (or AGENT_PROBE_TOKEN; prefer the environment)")
    run.add_argument("--interval", dest="interval_s", type=float, help="seconds between passes (default 60)")
    run.add_argument("--spool-dir", type=Path, help="where undelivered reports wait")
    run.add_argument("--once", action="store_true", help="one pass, deliver what is spooled, exit")
    run.add_argument("--fabric-tests", dest="fabric_tests", action="store_true", default=None,
                     help="run the pair tests the service plans for this node (one at a time)")
    run.add_argument("--fabric-address", help="the address peers reach this node's iperf3 server on")
    run.add_argument("--fabric-poll", dest="fabric_poll_s", type=float, help="longest wait between asks for a test")

    serve = commands.add_parser("serve-iperf", help="run the iperf3 server (and RTT port) peers measure against")
    serve.add_argument("--config", type=Path)
    serve.add_argument("--port", dest="iperf_port", type=int, help="iperf3 port (default 5201)")
    serve.add_argument("--rtt-port", type=int, help="RTT port, 0 = off (default 5202)")
    serve.add_argument("--bind", help="address to listen on (default all)")
    serve.add_argument("-v", "--verbose", action="store_true")
    return parser


_NOT_SETTINGS = {"command", "config", "format", "once", "verbose", "bind"}


def _config(args: argparse.Namespace) -> ProbeConfig:
    overrides: dict[str, Any] = {k: v for k, v in vars(args).items() if k not in _NOT_SETTINGS and v is not None}
    for key in ("nccl_tests_output", "nccl_log", "training_log", "spool_dir"):
        if key in overrides:
            overrides[key] = str(overrides[key])
    return load_config(args.config, overrides=overrides)


def _on_signals(stop: threading.Event) -> None:
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())


def cmd_collect(args: argparse.Namespace, cfg: ProbeConfig) -> int:
    from bwdoctor_probe.collect import collect_pass

    stop = threading.Event()
    _on_signals(stop)
    report = collect_pass(cfg, measure_peers=True, stop=stop)
    if cfg.gpu:
        from bwdoctor_probe.collectors.gpu import shutdown_nvml

        shutdown_nvml()
    fmt = args.format or ("text" if sys.stdout.isatty() else "json")
    if fmt == "json":
        sys.stdout.write(json.dumps(report.to_dict(), indent=2) + "\n")
    else:
        from bwdoctor_probe.output import render_text

        sys.stdout.write(render_text(report))
    return 0


def cmd_run(args: argparse.Namespace, cfg: ProbeConfig) -> int:
    if not cfg.server:
        raise ConfigError("server: required for run (--server, AGENT_PROBE_SERVER or the config file)")
    from bwdoctor_probe.client import ProbeClient
    from bwdoctor_probe.runner import Runner
    from bwdoctor_probe.spool import Spool

    spool = Spool(cfg.spool_dir, max_bytes=cfg.spool_max_bytes)
    spool.lock()
    stop = threading.Event()
    _on_signals(stop)
    with ProbeClient(cfg.server, cfg.token, timeout_s=cfg.http_timeout_s) as client:
        runner = Runner(cfg, client, spool, stop=stop)
        worker = None
        if cfg.fabric_tests and not args.once:
            from bwdoctor_probe.fabric_tests import start_worker

            worker = start_worker(cfg, stop=stop)
        if args.once:
            log.info("reporting %s to %s once", cfg.node_id, cfg.server)
        else:
            log.info("reporting %s to %s every %g s", cfg.node_id, cfg.server, cfg.interval_s)
        delivered_all = runner.run(once=args.once)
        if worker is not None:
            worker.join(timeout=cfg.fabric_max_duration_s + 20)
    spool.unlock()
    if args.once and not delivered_all:
        print(f"agent-probe: report not delivered yet; kept in {cfg.spool_dir}", file=sys.stderr)
        return 1
    log.info("stopped")
    return 0


def cmd_serve_iperf(args: argparse.Namespace, cfg: ProbeConfig) -> int:
    from bwdoctor_probe.iperf_server import serve

    stop = threading.Event()
    _on_signals(stop)
    return serve(port=cfg.iperf_port, rtt_port=cfg.rtt_port, bind=args.bind, binary=cfg.iperf3_path, stop=stop)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, stream=sys.stderr,
                        format="agent-probe: %(levelname)s %(message)s")
    try:
        cfg = _config(args)
        handler = {"collect": cmd_collect, "run": cmd_run, "serve-iperf": cmd_serve_iperf}[args.command]
        return handler(args, cfg)
    except ConfigError as exc:
        print(f"agent-probe: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
