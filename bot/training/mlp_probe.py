"""Research probe (not in the product): a nonlinear per-choice scorer on the same features."""
import sys, math
from pathlib import Path
import numpy as np
from bot.training.samples import load_samples

folder, held, hidden = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
steps = int(sys.argv[4]) if len(sys.argv) > 4 else 1500
l2 = float(sys.argv[5]) if len(sys.argv) > 5 else 1e-4
tr, te = load_samples([folder], seed=1, held_out=held, players=["bandana:dbrane"])
mu, sd = tr.features.mean(0), tr.features.std(0) + 1e-9
def prep(s): return (s.features - mu) / sd
Xtr, Xte = prep(tr), prep(te)
rng = np.random.default_rng(1)
d = Xtr.shape[1]
P = {"W1": rng.normal(0, 1 / math.sqrt(d), (d, hidden)), "b1": np.zeros(hidden),
     "w2": rng.normal(0, 1 / math.sqrt(max(hidden, 1)), hidden), "w": np.zeros(d)}

def seg_logsoftmax(z, starts, sizes):
    unit = np.repeat(np.arange(len(starts)), sizes)
    mx = np.maximum.reduceat(z, starts)
    e = np.exp(z - mx[unit])
    lse = np.log(np.add.reduceat(e, starts)) + mx
    return z - lse[unit], unit

def forward(X):
    H = np.tanh(X @ P["W1"] + P["b1"])
    return H @ P["w2"] + X @ P["w"], H

def loss_grad(X, s):
    z, H = forward(X)
    lp, unit = seg_logsoftmax(z, s.starts, s.sizes)
    taken = s.starts + s.labels
    n = len(s.starts)
    loss = -lp[taken].mean()
    g = np.exp(lp); g[taken] -= 1; g /= n
    G = {"w2": H.T @ g, "w": X.T @ g}
    dH = np.outer(g, P["w2"]) * (1 - H * H)
    G["W1"] = X.T @ dH; G["b1"] = dH.sum(0)
    for k in ("W1", "w2", "w"):
        loss += 0.5 * l2 * (P[k] ** 2).sum(); G[k] += l2 * P[k]
    return loss, G

def score(X, s):
    z, _ = forward(X)
    lp, unit = seg_logsoftmax(z, s.starts, s.sizes)
    best = np.maximum.reduceat(z, s.starts)
    taken = s.starts + s.labels
    ties = np.add.reduceat((z == best[unit]).astype(float), s.starts)
    acc = np.where(z[taken] == best, 1 / ties, 0).mean()
    return acc, -lp[taken].mean()

m = {k: np.zeros_like(v) for k, v in P.items()}; v = {k: np.zeros_like(x) for k, x in P.items()}
for t in range(1, steps + 1):
    loss, G = loss_grad(Xtr, tr)
    for k in P:
        m[k] = 0.9 * m[k] + 0.1 * G[k]; v[k] = 0.999 * v[k] + 0.001 * G[k] ** 2
        P[k] -= 0.01 * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(v[k] / (1 - 0.999 ** t)) + 1e-8)
    if t % 500 == 0 or t == steps:
        print(f"step {t} train loss {loss:.3f} train acc/ll {score(Xtr, tr)[0]:.3f} held-out acc {score(Xte, te)[0]:.3f} ll {score(Xte, te)[1]:.3f}", flush=True)
print(f"units train {len(tr.starts)} held-out {len(te.starts)}")

out = sys.argv[6] if len(sys.argv) > 6 else None
if out:
    import json
    keep = sd > 1e-6
    scale = np.where(keep, 1 / sd, 0.0)
    w_raw = P["w"] * scale
    W1_raw = P["W1"] * scale[:, None]
    b1_raw = P["b1"] - (np.where(keep, mu, 0.0) * scale) @ P["W1"]
    from search.orderpolicy import FEATURES, MODEL_FORMAT, MODEL_VERSION
    Path(out).write_text(json.dumps({
        "format": MODEL_FORMAT, "version": MODEL_VERSION, "name": Path(out).stem,
        "features": list(FEATURES), "weights": w_raw.tolist(),
        "hidden": [W1_raw.tolist(), b1_raw.tolist(), P["w2"].tolist()],
        "provenance": {"command": " ".join(sys.argv), "held_out_accuracy": float(score(Xte, te)[0])},
    }, indent=1))
    # the folded model scores raw features exactly as the fitted one (up to a constant)
    z_raw = np.tanh(te.features @ W1_raw + b1_raw) @ P["w2"] + te.features @ w_raw
    z_fit, _ = forward(Xte)
    diff = (z_raw - z_fit); print("fold check: spread of the difference", float(diff.max() - diff.min()))
