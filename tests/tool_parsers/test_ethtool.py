"""``ethtool <if>`` → the NIC's rating, over real captures (tests/fixtures/tool_output/ethtool_*.txt)."""

import pytest

from bwdoctor_parsers.ethtool import mode_gbps, parse_ethtool


def without_source(text: str) -> str:
    """The capture as ethtool printed it, without the fixture's ``# SOURCE:`` line."""
    return text.split("\n", 1)[1] if text.startswith("# SOURCE:") else text


@pytest.fixture
def ethtool_output(fixture_text):
    return lambda name: without_source(fixture_text(name))


def test_connectx4_100g_is_rated_100(ethtool_output):
    result = parse_ethtool(ethtool_output("ethtool_connectx4_100g_mlx5.txt"))
    assert result.interface == "enp1s0np0"
    assert result.max_supported_gbps == 100.0 and result.facts() == {"nic.max_speed_gbps": 100.0}
    assert len(result.supported) == 16 and "56000baseKR4/Full" in result.supported
    assert result.speed_gbps == 100.0 and result.link_detected is True and result.port == "Direct Attach Copper"
    assert result.max_advertised_gbps == 100.0 and result.max_partner_gbps is None


def test_intel_ixgbe_10g_with_spaces_for_tabs(ethtool_output):
    result = parse_ethtool(ethtool_output("ethtool_ixgbe_10g.txt"))
    assert result.supported == ["1000baseT/Full", "10000baseT/Full"]
    assert result.facts() == {"nic.max_speed_gbps": 10.0}
    assert result.speed_gbps == 10.0 and result.port == "FIBRE"


def test_gigabit_nic_that_came_up_at_100m(ethtool_output):
    """The case the rule is for: rated 1 Gb/s, negotiated 0.1, and the partner is why."""
    result = parse_ethtool(ethtool_output("ethtool_1g_at_100m_partner_10_100.txt"))
    assert result.facts() == {"nic.max_speed_gbps": 1.0}
    assert result.speed_gbps == 0.1 < result.max_supported_gbps
    assert result.max_partner_gbps == 0.1  # the switch port offers 10/100 only
    assert result.partner == ["10baseT/Full", "100baseT/Half", "100baseT/Full"]
    assert result.describe()["max_partner_gbps"] == 0.1


@pytest.mark.parametrize(
    ("name", "speed"), [("ethtool_virtio_not_reported.txt", None), ("ethtool_veth_not_reported.txt", 10.0)]
)
def test_virtual_nics_report_no_modes(ethtool_output, name, speed):
    result = parse_ethtool(ethtool_output(name))
    assert result.facts() == {} and result.max_supported_gbps is None and not result.modes_reported
    assert result.supported_line == "Not reported"
    assert result.speed_gbps == speed  # veth's nominal 10000Mb/s is a speed, never a rating


def test_ena_without_link_config_prints_no_modes_at_all(ethtool_output):
    result = parse_ethtool(ethtool_output("ethtool_ena_no_link_settings.txt"))
    assert result.interface == "ens3" and result.link_detected is True
    assert result.supported_line is None and result.facts() == {}


def test_source_line_of_a_fixture_does_not_matter(fixture_text):
    assert parse_ethtool(fixture_text("ethtool_connectx4_100g_mlx5.txt")).max_supported_gbps == 100.0


@pytest.mark.parametrize(
    ("mode", "gbps"),
    [
        ("100000baseCR4/Full", 100.0),
        ("25000baseSR/Full", 25.0),
        ("10000baseT/Full", 10.0),
        ("2500baseT/Full", 2.5),
        ("100000baseLR4_ER4/Full", 100.0),
        ("10000baseR_FEC", 10.0),
        ("400000baseCR8/Full", 400.0),
        ("10baseT/Half", 0.01),
        ("Not", None),
        ("reported", None),
        ("baseT/Full", None),
        ("0baseT/Full", None),
        ("", None),
        (None, None),
    ],
)
def test_mode_rates(mode, gbps):
    assert mode_gbps(mode) == gbps


def test_list_survives_an_interleaved_netlink_error():
    text = (
        "Settings for enp4s0f0np0:\n\tSupported link modes:   1000baseKX/Full\n"
        "\t                        25000baseCR/Full\n"
        "netlink error: Operation not permitted\n\t                        garbage line\n\tSpeed: 10000Mb/s\n"
    )
    result = parse_ethtool(text)
    assert result.supported == ["1000baseKX/Full", "25000baseCR/Full"] and result.speed_gbps == 10.0


def test_two_modes_on_one_line_and_only_advertised():
    result = parse_ethtool("\tSupported link modes:   10baseT/Half 10baseT/Full\n\t  1000baseT/Full 10000baseT/Full\n")
    assert result.max_supported_gbps == 10.0
    only_advertised = parse_ethtool(
        "\tSupported link modes:   Not reported\n\tAdvertised link modes:  25000baseSR/Full\n"
    )
    assert only_advertised.facts() == {} and only_advertised.max_advertised_gbps == 25.0


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage",
        "Settings for eth0:\n",
        "No data available\n",
        "\tSpeed: Unknown!\n\tLink detected: no\n",
        "\tSupported link modes: fast ones\n",
        "\tSpeed: -1Mb/s\n",
        "\x00\x01binary",
        "Supported link modes:",
        "\tSupported link modes: " + "9" * 5000 + "baseT/Full\n\tSpeed: " + "9" * 5000 + "Mb/s\n",  # int() would refuse
    ],
)
def test_garbage_gives_no_rating(text):
    result = parse_ethtool(text)
    assert result.facts() == {} and result.speed_gbps is None


def test_not_text():
    assert parse_ethtool(None).facts() == {}  # type: ignore[arg-type]


def test_link_detected_with_reason():
    assert parse_ethtool("\tLink detected: no (Autoneg, No partner detected)\n").link_detected is False
