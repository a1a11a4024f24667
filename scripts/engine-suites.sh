# Sourced by scripts/test and scripts/test-engine: the engine's own suites (rules, playouts,
# golden games, saves, fuzzing of actions and boards), which run on the compiled and on the
# pure-Python engine. They need the package and pytest + hypothesis, no browser and no Jupyter.
ENGINE_SUITES=(
  tests/test_rules_*.py tests/test_playouts.py tests/test_golden_games.py tests/test_records.py
  tests/test_landings.py tests/test_build.py tests/test_apply_fuzz.py tests/test_every_card.py
  tests/test_money_boundaries.py tests/test_round_limit_and_valuations.py
  tests/test_hostile_saves.py tests/test_board_fuzz_play.py tests/test_undo_checkpoints.py
  tests/test_event_log.py tests/test_fast_load.py tests/test_positions.py tests/test_scenario.py
  tests/test_strong_bot.py
)
