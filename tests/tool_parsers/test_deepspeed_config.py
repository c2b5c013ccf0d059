"""A DeepSpeed config pasted whole, cut short or inline: the job's ZeRO stage, batch sizes and precision."""

from __future__ import annotations

from bwdoctor_parsers.deepspeed_config import ROUTE, parse_deepspeed_config


def test_a_whole_config() -> None:
    text = """{
      "train_batch_size": 1024,
      "train_micro_batch_size_per_gpu": 2,
      "gradient_accumulation_steps": 16,
      "zero_optimization": {"stage": 3, "overlap_comm": true, "offload_optimizer": {"device": "cpu"}},
      "bf16": {"enabled": true},
      "fp16": {"enabled": false}
    }"""
    assert ROUTE.search(text)
    assert parse_deepspeed_config(text) == {
        "job.zero_stage": 3,
        "job.parallelism": "fsdp",
        "job.micro_batch_size": 2,
        "job.grad_accum_steps": 16,
        "job.global_batch_size": 1024,
        "job.precision": "bf16",
    }


def test_values_deepspeed_fills_in_say_nothing() -> None:
    text = '{"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto", '
    text += '"fp16": {"enabled": "auto"}}'
    assert parse_deepspeed_config(text) == {}


def test_stage_zero_is_plain_data_parallel() -> None:
    facts = parse_deepspeed_config('"zero_optimization": {"stage": 0}')
    assert facts == {"job.zero_stage": 0, "job.parallelism": "data"}


def test_a_config_cut_short_still_reads() -> None:
    text = '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": {\n    "stage": 2,\n    "allgather_bucket'
    assert parse_deepspeed_config(text) == {"job.micro_batch_size": 4, "job.zero_stage": 2, "job.parallelism": "fsdp"}


def test_no_deepspeed_key_no_route() -> None:
    assert not ROUTE.search('{"stage": 1, "batch": 4}')
