"""``companion games`` and ``companion rules ...``: the rules engines from the command
line (new, legal, hint, match, play)."""

from __future__ import annotations

import argparse
import json
import random
from typing import TYPE_CHECKING, Any

from companion.rules import (
    Phase,
    State,
    game_ids,
    game_title,
    random_action,
)

if TYPE_CHECKING:
    pass

from companion.cli.common import (
    MAX_PLAYOUT_ACTIONS,
    UsageError,
    _game,
    _new_state,
    _position_with_throw,
    _words,
)


def cmd_games(args: argparse.Namespace) -> int:
    for game_id in game_ids():
        print(f"{game_id}\t{game_title(game_id)}")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    print(json.dumps(_new_state(args).to_dict(), indent=2))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    state, result = _position_with_throw(args)
    result["phase"] = state.phase.value
    if state.phase is Phase.OVER:
        outcome = state.outcome
        assert outcome is not None
        result["winners"] = [state.game.player_name(w, state.players) for w in outcome.winners]
        result["moves"] = []
    else:
        result["to_act"] = state.player_to_act_name
        moves = []
        for move in state.legal_moves():
            after = state.copy()
            events = after.apply(move)
            moves.append({"move": move.notation, "events": list(_words(after, events)),
                          "event_data": [e.to_json() for e in events]})
        result["moves"] = moves
    print(json.dumps(result, indent=2))
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    """``companion rules hint``: the computer's move for a throw at ``--level``, said in
    words (ties as ties), and every different result ranked by its searched value, all
    from one search at one depth (:func:`companion.ai.player.hint`), as JSON (see
    :func:`hint_answer`)."""
    from companion.ai.player import choose, estimate, get_level, hint
    from companion.ai.search import Decision

    try:
        get_level(args.level)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    state, result = _position_with_throw(args)
    phase = state.phase
    if phase is Phase.OVER:
        raise UsageError("the game is over: there is no move to hint")
    if phase is Phase.THROW:
        spec = state.throw_spec
        assert spec is not None
        raise UsageError(
            f"after that throw the position waits for another throw ({spec.describe()}), "
            "not for a move"
        )
    from companion.ai.race import exact_for

    me = state.current_player
    found = hint(state, args.level)
    played = choose(state, args.level, random.Random(args.seed)).move
    decision = Decision(played, found.value, found.rows, found.depth, found.nodes, 0.0)
    exact = exact_for(state.game)
    solved = exact(state) if exact is not None else None
    now = solved[me] if solved is not None else estimate(state, me)
    result.update(hint_answer(state, args.level, now, decision, exact=solved is not None))
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


HINT_DIGITS = 4
"""Values are given, and compared for ties, to this many decimals."""


def hint_answer(state: State, level: str, now: float, decision: Any,
                exact: bool = False) -> dict[str, Any]:
    """The answer of ``rules hint`` for ``state`` (waiting for a move) from the search's
    ``decision`` (:class:`companion.ai.search.Decision`) at ``level`` and ``now``, the
    player's chance to win before moving (0..1). ``exact`` is true where the values are
    an ending solved to the end (:mod:`companion.ai.race`: both Senets): then ``now`` is
    that exact chance, not the estimate from the pieces alone, and the summary says so
    instead of how far the search looked.

    Moves that reach the same position (the same pieces on the same squares, moved in
    another order) are one result; results whose values are equal to
    :data:`HINT_DIGITS` decimals share a rank, and when several share the first, the
    answer says it is a tie. ``depth`` is the depth of the best result's value, as its
    entry in ``ranking`` gives it. An ``about`` table says what each field means, and
    ``summary`` the answer in one sentence.
    """
    who = state.player_to_act_name
    groups: dict[object, list[Any]] = {}
    for entry in decision.ranking:
        after = state.copy()
        after.apply(entry.move)
        groups.setdefault(after.position_key(), []).append(entry)
    results: list[dict[str, Any]] = []
    rank, last = 0, None
    for n, entries in enumerate(sorted(groups.values(), key=lambda g: -g[0].value), start=1):
        value = round(entries[0].value, HINT_DIGITS)
        if value != last:
            rank, last = n, value
        results.append({"rank": rank, "moves": [e.move.notation for e in entries],
                        "value": value, "depth": entries[0].depth})
    top = results[0]
    tied = [r["moves"][0] for r in results if r["rank"] == 1]
    chosen = decision.move.notation
    ahead = ("exact: this ending is solved to the end" if exact else
             f"looking {top['depth']} move{'s' if top['depth'] != 1 else ''} and throws ahead")
    either = " or ".join(tied) if len(tied) == 2 else ", ".join(tied[:-1]) + " or " + tied[-1]
    if len(tied) == 1:
        first = f"{who}'s best move is {tied[0]}"
        if len(top["moves"]) > 1:
            first += f" (or {', '.join(top['moves'][1:])}: the same result)"
        first += ","
    elif len(tied) == len(results) > 2:
        first = f"A tie: all {len(results)} different results are as good for {who} ({either}), each"
    else:
        first = f"A tie: {len(tied)} moves are as good for {who} ({either}), each"
    summary = (f"{first} a {top['value']:.1%} chance to win ({ahead}); before moving, "
               f"{now:.1%}. The computer at {level} would play {chosen}.")
    return {
        "to_act": who,
        "level": level,
        "summary": summary,
        "estimate": round(now, HINT_DIGITS),
        "exact": exact,
        "best": chosen,
        "tie": tied if len(tied) > 1 else [],
        "value": top["value"],
        "depth": top["depth"],
        "legal_moves": len(decision.ranking),
        "results": len(results),
        "ranking": results,
        "about": {
            "estimate": (f"{who}'s exact chance to win now, before moving, with the best "
                         "move: 0 (lost) to 1 (won)" if exact else
                         f"{who}'s chance to win now, before moving, from the position of "
                         "the pieces alone: 0 (lost) to 1 (won)"),
            "exact": "whether the values are exact: an ending with few pieces left, solved "
                     "to the end (Tait's Senet), rather than a search's estimate",
            "best": f"the move the computer would play at level {level} (easy adds noise: "
                    "not always the first of the ranking)",
            "tie": "the moves whose results are as good as the best one (equal values); "
                   "empty when one result is best",
            "value": f"{who}'s chance to win after the best move, 0 to 1, looking 'depth' "
                     "moves and throws ahead",
            "depth": "how many moves and throws (plies) ahead a value looked; deeper is "
                     "surer",
            "legal_moves": "how many moves the rules allow with this throw",
            "results": "how many different positions those moves reach",
            "ranking": "every different result, best first: 'moves' that reach it (several "
                       "when they move the same pieces to the same squares in another "
                       "order), its 'value' and 'depth'; results of equal value share a "
                       "'rank'",
        },
    }


def cmd_match(args: argparse.Namespace) -> int:
    """``companion rules match``: whole games between players, win rates and intervals."""
    from companion.ai.match import match

    entries = [name.strip() for name in args.players.split(",") if name.strip()]
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    game = _game(args)
    try:
        result = match(game, entries, args.games, args.seed)
    except ValueError as exc:  # an unknown player, a number of players the game lacks
        raise UsageError(str(exc)) from None
    print(f"{game.id}: {result.games} games of {len(entries)} players, seats rotating, seed {args.seed}")
    width = max(len(e) for e in entries)
    for j, name in enumerate(entries):
        low, high = result.interval(j)
        wins = result.wins[j]
        shown = f"{wins:g}" if wins == int(wins) else f"{wins:.2f}"
        print(
            f"{j + 1}. {name:<{width}}  won {result.rate(j):6.1%}  "
            f"95% interval [{low:.1%}, {high:.1%}]  ({shown} wins)"
        )
    return 0


def play_record(state: State, seed: int | None) -> list[str]:
    """Play ``state`` to the end with uniformly random legal moves and fair throws.

    Returns the record, one action a line, ending with the winner.

    :raises RuntimeError: if the game has not ended after ``MAX_PLAYOUT_ACTIONS``.
    """
    rng = random.Random(seed)
    lines: list[str] = []
    for n in range(1, MAX_PLAYOUT_ACTIONS + 1):
        phase = state.phase
        if phase is Phase.OVER:
            outcome = state.outcome
            assert outcome is not None
            names = " and ".join(
                state.game.player_name(w, state.players) for w in outcome.winners
            )
            lines.append(f"winner: {names} ({outcome.reason})")
            return lines
        who = state.player_to_act_name
        action = random_action(state, rng.randrange)
        text = f"throw {action}" if phase is Phase.THROW else str(action)
        events = state.apply(action)
        said = "; ".join(_words(state, events))
        lines.append(f"{n:4d}  {who:<8} {text:<14} {said}")
    raise RuntimeError(f"the game did not end after {MAX_PLAYOUT_ACTIONS} actions")


def cmd_play(args: argparse.Namespace) -> int:
    state = _new_state(args)
    for line in play_record(state, args.seed):
        print(line)
    return 0
