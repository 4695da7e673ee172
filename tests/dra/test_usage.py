"""DeviceUsage: the ledger of allocated devices, shared capacity and holders; copy-on-write across many additions."""

from __future__ import annotations

from decimal import Decimal

from kubectl_wasdra.dra import DeviceUsage


def result(device: str, **fields: object) -> dict:
    return {"request": "r", "driver": "d", "pool": "p", "device": device, **fields}


def test_from_claims_splits_exclusive_shared_and_admin() -> None:
    claims = [{"metadata": {"name": "a", "namespace": "ns"}, "status": {"allocation": {"devices": {"results": [
        result("x"), result("y", adminAccess=True), result("z", shareID="s1", consumedCapacity={"mem": "1Gi"}),
        result("z", shareID="s2", consumedCapacity={"mem": "2Gi"})]}}}}]
    usage = DeviceUsage.from_claims(claims)
    assert usage.is_exclusive("d/p/x") and not usage.is_allocated("d/p/y")
    assert usage.capacity_in_use("d/p/z") and usage.consumed_capacity("d/p/z") == {"mem": Decimal(3 * 2**30)}
    assert usage.holders.get("d/p/x") == "ns/a" and len(usage) == 3


def test_many_additions_keep_every_older_ledger_unchanged() -> None:
    ledgers = [DeviceUsage()]
    for i in range(1500):  # crosses the fold threshold of the layered containers several times
        ledgers.append(ledgers[-1].with_results([result(f"g{i}")], holder=f"ns/c{i}"))
    last = ledgers[-1]
    assert len(last) == 1500 and all(last.is_exclusive(f"d/p/g{i}") for i in range(1500))
    assert last.holders.get("d/p/g7") == "ns/c7"
    middle = ledgers[700]
    assert len(middle) == 700 and middle.is_exclusive("d/p/g699") and not middle.is_exclusive("d/p/g700")
    assert sorted(middle.exclusive) == sorted(f"d/p/g{i}" for i in range(700))
