"""Paths shared by the peer benchmark scripts (standard library only: used on the host and in
the torch chroot)."""
import os

PT2_TAGS = ("torch2_14", "torch2_6")  # preferred first


def large_fixtures_dir(repo):
    """$EMBER_LARGE_FIXTURES_DIR, else ../large_fixtures beside the checkout (the tests' rule)."""
    d = os.environ.get("EMBER_LARGE_FIXTURES_DIR")
    return d if d else os.path.abspath(os.path.join(repo, "..", "large_fixtures"))


def work_dir(repo):
    """Machine-local files of the peer benchmark (ONNX, .pte, outputs, results)."""
    d = os.environ.get("EMBER_PEERS_DIR")
    return d if d else os.path.join(large_fixtures_dir(repo), "peers")


def find_fixture(repo, model):
    """(directory, base name) of model's core-ATen .pt2 with its case-0 reference files, from
    tests/fixtures/pt2 or the large fixtures directory; None when absent."""
    dirs = [os.path.join(repo, "tests", "fixtures", "pt2"), os.path.join(large_fixtures_dir(repo), "pt2")]
    for tag in PT2_TAGS:
        for d in dirs:
            base = "%s.core_aten.%s" % (model, tag)
            if all(os.path.exists(os.path.join(d, base + sfx))
                   for sfx in (".pt2", ".input0.bin", ".output0.bin")):
                return d, base
    return None
