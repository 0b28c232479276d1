"""The README's example: gate a test on a score threshold."""
import docscore


def test_f1_holds():
    report = docscore.score_tabular(sample=True)
    worst = min(cell["f1"] for cell in report["cells"])
    assert worst >= 0.95, f"F1 fell to {worst:.4f}"
