import sys
from service import engine
from service.solver import Budget, Result, solve
found = 0
for i in range(200):
    code = engine.GameCode.random_secret(engine.GameKind.REFLECHI, 3, engine.Scoring.NORMAL)
    a = solve(engine.new_game(code), Budget(seconds=2.0))
    if a.result is not Result.WON:
        continue
    b = solve(engine.new_game(code), Budget(seconds=3.0))
    if b.result is Result.UNWINNABLE:
        g = engine.new_game(code)
        ok = True
        try:
            for t in a.line: g.play(engine.parse_action(t))
        except Exception as e:
            ok = f"line fails: {e}"
        print("CONTRADICTION", code, "line replays:", ok, g.won, flush=True)
        found += 1
        if found >= 2: break
print("done", i, flush=True)
