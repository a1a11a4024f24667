"""The training recipe with stable-baselines3: MaskablePPO (sb3-contrib) against the house bots.

    from ugentopoly_widget.rl.sb3 import train
    run = train("classic", opponents="curriculum", cpu_minutes=30)
    run.model.save("agent.zip")           # MaskablePPO.load("agent.zip") later
    run.curve                              # the learning curve, a list of dicts

Needs ``torch``, ``stable-baselines3`` and ``sb3-contrib``, which this project does not depend on
(docs/rl.md: install torch's CPU build first, or pip fetches gigabytes of CUDA libraries).
Why each setting is what it is: docs/rl.md, "Training an agent".
"""

from __future__ import annotations

import copy
import os
import resource
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.bots import make_bot
from ..engine.errors import SetupError
from .curriculum import Curriculum
from .errors import MissingExtraError
from .evaluation import Evaluation, evaluate
from .imitation import Demonstrations, demonstrations
from .selfplay import SelfPlayEnv
from .single import SingleAgentEnv

INSTALL = ("pip install torch --index-url https://download.pytorch.org/whl/cpu "
           "&& pip install sb3-contrib")

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
except ImportError as _exc:  # pragma: no cover - exercised where the extra is absent
    raise MissingExtraError(
        f"ugentopoly_widget.rl.sb3 needs torch, stable-baselines3 and sb3-contrib: {INSTALL} "
        f"({_exc})") from _exc

# MaskablePPO's settings of the recipe (docs/rl.md, "Training an agent", says why): 8 games
# side by side, long horizons (a game is hundreds of decisions: gamma 0.999), big minibatches
# (a few large matrix products instead of many small ones), a network wide enough to imitate
# the teacher bot, and small, careful steps from the imitation on (learning rate 1e-4, clip
# 0.1): the policy improves on the bot's play instead of forgetting it.
PPO_SETTINGS: dict[str, Any] = {
    "n_steps": 256,
    "batch_size": 512,
    "n_epochs": 4,
    "learning_rate": 3e-5,
    "clip_range": 0.1,
    "gamma": 0.999,
    "gae_lambda": 0.95,
    "ent_coef": 0.0,
    "policy_kwargs": {"net_arch": [256, 256]},
}
N_ENVS = 8
REWARD_SHAPING = 1.0
IMITATION_GAMES = 400  # the teacher's decisions in 400 games: ~107,000 rows (strong bot)
IMITATION_EPOCHS = 30
# The bot imitated before PPO: the strong bot, which beats the heuristic one (85 % in 2-player
# classic; ~77 % when it plays through the encoding, which cannot say its swaps): imitating
# the heuristic bot only draws level with it, and PPO's small steps do not climb far from there.
IMITATION_TEACHER = "strong"


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (user + system)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def make_vec_env(make: Callable[[], Any], n_envs: int = N_ENVS, seed: int = 0,
                 processes: bool = False) -> Any:
    """`n_envs` environments from `make` as an SB3 VecEnv (``processes=True``: one process
    each, SubprocVecEnv; a script must then start under ``if __name__ == "__main__":``)."""
    venv = (SubprocVecEnv if processes else DummyVecEnv)([make] * n_envs)
    venv.seed(seed)
    return venv


@dataclass
class TrainResult:
    """A trained model and its learning curve (one row per log point)."""

    model: Any
    curve: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Evaluation] = field(default_factory=dict)
    imitation: dict[str, Any] = field(default_factory=dict)
    kept_steps: int | None = None  # keep_best: the steps of the policy kept (None: the last)


class LearningCurve(BaseCallback):  # type: ignore[misc]
    """Logs the training games' results (by opponent), the curriculum level, steps, wall and
    CPU time every `every` steps; evaluates against `eval_opponents` every `eval_every` steps;
    stops at `cpu_minutes` of CPU time or `minutes` of wall time, counted from `started`
    (wall, CPU) or the start of learning. The evaluations count in the budget. Keeps the
    parameters of the policy that won most in an evaluation against the first of
    `eval_opponents` (`best`, `best_steps`): PPO from a clone can drift below it."""

    def __init__(self, every: int = 20_000, *, eval_every: int = 0,
                 eval_opponents: Sequence[str] = ("heuristic",), eval_games: int = 100,
                 eval_kwargs: dict[str, Any] | None = None, cpu_minutes: float | None = None,
                 minutes: float | None = None, verbose: bool = True,
                 started: tuple[float, float] | None = None) -> None:
        super().__init__()
        self.every, self.eval_every = every, eval_every
        self.eval_opponents, self.eval_games = tuple(eval_opponents), eval_games
        self.eval_kwargs = dict(eval_kwargs or {})
        self.cpu_limit = None if cpu_minutes is None else 60.0 * cpu_minutes
        self.wall_limit = None if minutes is None else 60.0 * minutes
        self.talk = verbose
        self.rows: list[dict[str, Any]] = []
        self.recent: deque[tuple[str, str, int]] = deque(maxlen=500)
        self.episodes = self.truncated = 0
        self.level: float | None = None
        self._next_log = every
        self._next_eval = eval_every if eval_every else None
        self._started = started  # (wall, CPU) where the budget began (imitation included)
        self._t0 = self._c0 = 0.0
        self.best: dict[str, Any] | None = None  # the best evaluated policy's state_dict
        self.best_steps: int | None = None
        self._best_win = -1.0

    def _on_training_start(self) -> None:
        self._t0, self._c0 = self._started or (time.time(), cpu_seconds())
        if self.eval_every:  # the curve's first point: the policy before any PPO update
            self.log_row(evaluate_now=True)

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            if done and "result" in info:
                self.episodes += 1
                self.truncated += info["result"] == "truncated"
                opponents = info.get("opponents") or ["self"]  # (SelfPlayEnv: its pool)
                self.recent.append((opponents[0], info["result"], int(info.get("steps", 0))))
                self.level = info.get("curriculum_level", self.level)
        steps = self.num_timesteps
        if steps >= self._next_log:
            self._next_log = steps + self.every
            self.log_row(evaluate_now=self._next_eval is not None and steps >= self._next_eval)
        cpu = cpu_seconds() - self._c0
        if self.cpu_limit is not None and cpu >= self.cpu_limit:
            return False
        return self.wall_limit is None or time.time() - self._t0 < self.wall_limit

    def log_row(self, evaluate_now: bool = False) -> dict[str, Any]:
        row: dict[str, Any] = {
            "steps": self.num_timesteps, "wall_s": round(time.time() - self._t0, 1),
            "cpu_s": round(cpu_seconds() - self._c0, 1), "load": round(os.getloadavg()[0], 2),
            "episodes": self.episodes, "truncated": self.truncated}
        for name in sorted({o for o, _, _ in self.recent}):
            results = [r for o, r, _ in self.recent if o == name]
            row[f"train_win_{name}"] = round(sum(r == "win" for r in results) / len(results), 3)
        if self.level is not None:
            row["curriculum_level"] = round(self.level, 3)
        if evaluate_now and self.eval_every:
            self._next_eval = self.num_timesteps + self.eval_every
            for name in self.eval_opponents:
                result = evaluate(self.model, opponents=name, games=self.eval_games,
                                  **self.eval_kwargs)
                row[f"eval_win_{name}"] = round(result.win_rate, 3)
            first = row[f"eval_win_{self.eval_opponents[0]}"]
            if first > self._best_win:
                self._best_win, self.best_steps = first, self.num_timesteps
                self.best = copy.deepcopy(self.model.policy.state_dict())
        self.rows.append(row)
        if self.talk:
            print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
        return row


class SelfPlayCallback(BaseCallback):  # type: ignore[misc]
    """Adds a frozen copy of the learner's policy to every SelfPlayEnv's opponent pool each
    `every` steps (the first at the start): the learner plays its recent selves."""

    def __init__(self, every: int = 50_000) -> None:
        super().__init__()
        self.every = every
        self._next = 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next = self.num_timesteps + self.every
            frozen = copy.deepcopy(self.model.policy).to("cpu")
            frozen.set_training_mode(False)
            self.training_env.env_method("add_opponent", frozen)
        return True


def imitate(model: Any, demos: Demonstrations, *, epochs: int = 10, batch_size: int = 512,
            learning_rate: float = 1e-3, vf_coef: float = 0.5, seed: int = 0) -> list[float]:
    """Behaviour cloning: fit `model`'s policy to the demonstrations' actions (masked
    cross-entropy) and its value function to their returns. Returns the loss per epoch."""
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    device = policy.device
    obs = torch.as_tensor(demos.observations, device=device)
    actions = torch.as_tensor(demos.actions, device=device)
    returns = torch.as_tensor(demos.returns, device=device)
    masks = demos.masks
    order = torch.Generator().manual_seed(seed)
    losses = []
    for _ in range(epochs):
        total = 0.0
        permutation = torch.randperm(len(demos), generator=order)
        for start in range(0, len(demos), batch_size):
            rows = permutation[start:start + batch_size]
            values, log_prob, _ = policy.evaluate_actions(
                obs[rows], actions[rows], action_masks=masks[rows.numpy()])
            loss = -log_prob.mean() + vf_coef * torch.nn.functional.mse_loss(
                values.flatten(), returns[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(rows)
        losses.append(total / len(demos))
    policy.set_training_mode(False)
    return losses


def train(
    profile: str = "classic",
    opponents: str | Curriculum | Sequence[Any] = "heuristic",
    *,
    players: int | None = None,
    steps: int | None = None,
    minutes: float | None = None,
    cpu_minutes: float | None = None,
    n_envs: int = N_ENVS,
    seed: int = 0,
    reward_shaping: float = REWARD_SHAPING,
    env_kwargs: dict[str, Any] | None = None,
    ppo: dict[str, Any] | None = None,
    log_every: int = 20_000,
    eval_every: int = 0,
    eval_games: int = 100,
    eval_opponents: Sequence[str] = ("heuristic",),
    final_games: int = 0,
    imitation_games: int = IMITATION_GAMES,
    imitation_epochs: int = IMITATION_EPOCHS,
    teacher: str = IMITATION_TEACHER,
    keep_best: bool = True,
    processes: bool = False,
    threads: int | None = 1,
    verbose: bool = True,
) -> TrainResult:
    """Train MaskablePPO on ``SingleAgentEnv(profile, opponents=...)`` with the recipe.

    Args:
        profile, opponents, players, reward_shaping, env_kwargs: the environments (one per
            ``n_envs``); ``opponents="self"`` trains by self-play through PettingZoo
            (SelfPlayEnv over ``raw_env``, frozen copies of the learner every 50,000 steps).
        steps, minutes, cpu_minutes: when to stop (the first reached; one is needed).
        ppo: MaskablePPO settings over PPO_SETTINGS.
        log_every, eval_every, eval_games, eval_opponents: the learning curve's rows
            (training games' win rates every `log_every` steps; an evaluation against each
            of `eval_opponents` every `eval_every` steps, 0: never).
        final_games: evaluate against heuristic, strong and random with this many games at
            the end.
        imitation_games, imitation_epochs, teacher: first imitate the bot `teacher` (a name
            of ``engine.bots.BOTS``) over `imitation_games` games against the heuristic bot
            (behaviour cloning, :func:`imitate`, `imitation_epochs` passes; 0 games: start
            from the uniform policy, and then meet the heuristic bot through
            ``opponents="curriculum"``).
        keep_best: with evaluations (`eval_every`), end with the policy that won most in
            them against the first of `eval_opponents` (the clone itself, if PPO never beat
            it): the final evaluation (other seeds) then measures that policy.
        processes: SubprocVecEnv (one process per environment) instead of DummyVecEnv.
        threads: torch's CPU threads (1: best on a small or shared machine).
    """
    if steps is None and minutes is None and cpu_minutes is None:
        raise SetupError("say when to stop: steps, minutes or cpu_minutes")
    started = (time.time(), cpu_seconds())
    if imitation_games:
        make_bot(teacher)  # an unknown teacher: BotError now, not after the set-up
    if threads is not None:
        torch.set_num_threads(threads)
    kwargs = dict(env_kwargs or {})
    settings = {**PPO_SETTINGS, **(ppo or {})}
    gamma = float(settings["gamma"])
    if opponents == "self":
        def make() -> Any:
            return SelfPlayEnv(_raw(profile, players or 2, reward_shaping, kwargs))
    else:
        def make() -> Any:
            # (a Curriculum object is copied per environment: each moves on by its own games)
            return SingleAgentEnv(profile, opponents=copy.deepcopy(opponents), players=players,
                                  reward_shaping=reward_shaping, shaping_gamma=gamma, **kwargs)
    venv = make_vec_env(make, n_envs, seed, processes)
    model = MaskablePPO("MlpPolicy", venv, seed=seed, verbose=0, **settings)
    eval_kwargs = {"players": players, **{k: v for k, v in kwargs.items()
                                         if k in ("max_turns", "options", "board")}}
    imitation: dict[str, Any] = {}
    if imitation_games:
        imitation_started = cpu_seconds()
        demos = demonstrations(profile, teacher, "heuristic", games=imitation_games,
                               seed=seed + 10**7, gamma=gamma, reward_shaping=reward_shaping,
                               shaping_gamma=gamma, **eval_kwargs)
        losses = imitate(model, demos, epochs=imitation_epochs, seed=seed)
        imitation = {"imitation_teacher": teacher, "imitation_rows": len(demos),
                     "imitation_teacher_wins": f"{demos.wins}/{demos.games}",
                     "imitation_loss": round(losses[-1], 4),
                     "imitation_cpu_s": round(cpu_seconds() - imitation_started, 1)}
        if verbose:
            print(" ".join(f"{k}={v}" for k, v in imitation.items()), flush=True)
    curve = LearningCurve(log_every, eval_every=eval_every, eval_games=eval_games,
                          eval_opponents=eval_opponents,
                          eval_kwargs={"profile": profile, **eval_kwargs},
                          cpu_minutes=cpu_minutes, minutes=minutes, verbose=verbose,
                          started=started)
    callbacks: list[Any] = [curve]
    if opponents == "self":
        callbacks.append(SelfPlayCallback())
    model.learn(steps if steps is not None else 10**12, callback=callbacks)
    curve.log_row(evaluate_now=True)  # the last row: the final policy (evaluated if any is)
    kept = None
    if keep_best and curve.best is not None:
        model.policy.load_state_dict(curve.best)
        kept = curve.best_steps
        if verbose:
            print(f"kept the policy of step {kept} (its evaluation won most)", flush=True)
    result = TrainResult(model, curve.rows, imitation=imitation, kept_steps=kept)
    if final_games:
        for name in ("heuristic", "strong", "random"):
            result.final[name] = evaluate(model, profile, name, games=final_games,
                                          seed=10**6, **eval_kwargs)
    venv.close()
    return result


def _raw(profile: str, players: int, shaping: float, kwargs: dict[str, Any]) -> Any:
    from .aec import raw_env

    allowed = ("board", "options", "max_turns", "max_offers_per_turn")
    return raw_env(profile, players=players, reward_shaping=shaping,
                   **{k: v for k, v in kwargs.items() if k in allowed})


__all__ = ["train", "imitate", "TrainResult", "IMITATION_GAMES", "IMITATION_EPOCHS",
           "IMITATION_TEACHER",
           "LearningCurve", "SelfPlayCallback", "make_vec_env", "PPO_SETTINGS", "N_ENVS",
           "cpu_seconds", "INSTALL"]
