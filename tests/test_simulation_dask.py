"""The Dask path on a LocalCluster of 2 workers (started and closed here): the same results as
in this process, failures reported, and the command line on a scheduler address."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cloudpickle
import dask
import pandas as pd
import pytest
import simulation_bots
from distributed import Client, LocalCluster
from simulation_bots import Explosive, Killer

from ugentopoly_widget.simulation import cli, game_seed, simulate

SHORT = {"round_limit": 25}
ALL = {"landings": "roll", "net_worth": 5, "events": 2}


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                           processes=True, silence_logs=40)
    dask_client = Client(cluster)
    try:
        yield dask_client
    finally:
        dask_client.close()
        cluster.close()


def run(**kw: object) -> object:
    return simulate(9, "classic", bots=["heuristic", "heuristic", "random"], options=SHORT,
                    progress=False, collect=ALL, **kw)  # type: ignore[arg-type]


def test_dask_gives_the_same_results_as_this_process(client: Client) -> None:
    serial = run()
    on_dask = run(executor=client, chunk_size=2)
    assert on_dask.executor == "dask" and on_dask.workers == 2  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(serial.games, on_dask.games)  # type: ignore[attr-defined]
    assert serial.landings == on_dask.landings  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(serial.net_worth, on_dask.net_worth)  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(serial.events, on_dask.events)  # type: ignore[attr-defined]
    # the chunks really ran on both workers
    assert len(client.nthreads()) == 2


def test_a_game_that_raises_on_a_dask_worker(client: Client) -> None:
    cloudpickle.register_pickle_by_value(simulation_bots)  # the workers cannot import tests/
    try:
        results = simulate(6, "classic", bots=[Explosive, "heuristic"], options=SHORT,
                           executor=client, chunk_size=2, progress=False, collect=())
    finally:
        cloudpickle.unregister_pickle_by_value(simulation_bots)
    assert results.failures["game"].tolist() == [2]
    assert results.failures["seed"].tolist() == [game_seed(0, 2)]
    assert "RuntimeError: bot bug in game 2" in results.failures["error"].iloc[0]
    assert results.games["game"].tolist() == [0, 1, 3, 4, 5]


def test_cli_on_a_scheduler_address(client: Client, tmp_path: Path) -> None:
    address = client.scheduler.address
    out = tmp_path / "r.csv"
    code = cli.main(["--profile", "classic", "--games", "5", "--bots", "heuristic,random",
                     "--option", "round_limit=20", "--no-progress", "--scheduler", address,
                     "--out", str(out)])
    assert code == 0
    back = pd.read_csv(out)
    want = simulate(5, "classic", bots=["heuristic", "random"], options={"round_limit": 20},
                    progress=False).games
    assert back["seed"].tolist() == want["seed"].tolist()
    assert back["turns"].tolist() == want["turns"].tolist()


def test_a_dask_worker_that_dies_costs_only_its_chunk() -> None:
    # A cluster of its own: one retry (allowed-failures 1), one task per worker thread, so a
    # dying worker takes no queued bystander with it.
    settings = {"distributed.scheduler.allowed-failures": 1,
                "distributed.scheduler.worker-saturation": 1.0}
    with dask.config.set(settings), LocalCluster(
        n_workers=2, threads_per_worker=1, dashboard_address=None, processes=True,
        silence_logs=50,
    ) as cluster, Client(cluster) as dask_client:
        cloudpickle.register_pickle_by_value(simulation_bots)
        try:
            results = simulate(12, "classic", bots=[Killer, Killer], options=SHORT,
                               executor=dask_client, chunk_size=2, progress=False, collect=())
        finally:
            cloudpickle.unregister_pickle_by_value(simulation_bots)
    assert results.failures["game"].tolist() == [4, 5]
    assert all(results.failures["error"].str.startswith("KilledWorker"))
    assert results.retried >= 1 and results.complete
    want = simulate(12, "classic", bots=["heuristic"] * 2, options=SHORT, progress=False,
                    collect=()).games
    pd.testing.assert_frame_equal(results.games,
                                  want[~want["game"].isin([4, 5])].reset_index(drop=True))
