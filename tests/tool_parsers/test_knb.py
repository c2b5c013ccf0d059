"""knb (Kubernetes network benchmark) reports: the pods' MTU and the pod-to-pod TCP bandwidth as a measurement."""

from bwdoctor_parsers.knb import parse_knb

KNB = """\
=========================================================
 Benchmark Results
=========================================================
 Discovered CPU         : Intel(R) Xeon(R) Gold 6150 CPU @ 2.70GHz
 Discovered Kernel      : 5.4.0-72-generic
 Discovered k8s version : v1.19.9
 Discovered MTU         : 1440
 Idle :
    bandwidth = 0 Mbit/s
    client cpu = total 1.29% (user 0.71%, nice 0.00%, system 0.58%, iowait 0.00%, steal 0.00%)
  Pod to pod :
    TCP :
      bandwidth = 7328 Mbit/s
      client cpu = total 17.07% (user 2.41%, nice 0.00%, system 14.50%, iowait 0.16%, steal 0.00%)
    UDP :
      bandwidth = 1821 Mbit/s
  Pod to Service :
    TCP :
      bandwidth = 6921 Mbit/s
"""


def test_pod_to_pod_tcp_is_the_measurement_and_the_mtu_the_pods():
    result = parse_knb(KNB)
    assert result.tcp_gbps == {"pod to pod": 7.328, "pod to service": 6.921}
    assert result.facts() == {"nic.mtu": 1440, "net.iperf3_gbps": 7.328}


def test_pod_to_service_when_pod_to_pod_is_missing_and_udp_never():
    only_service = KNB.replace("Pod to pod", "Pod to nothing")
    assert parse_knb(only_service).facts()["net.iperf3_gbps"] == 6.921
    udp_only = "Discovered MTU : 1500\n  Pod to pod :\n    UDP :\n      bandwidth = 900 Mbit/s\n"
    assert parse_knb(udp_only).facts() == {"nic.mtu": 1500}


def test_other_text_gives_nothing():
    assert parse_knb("bandwidth = 10 Gbit/s").facts() == {}
    assert parse_knb("").facts() == {}
    assert parse_knb(None).facts() == {}  # type: ignore[arg-type]
