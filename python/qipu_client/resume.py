"""Resuming a stream where the last run stopped: the cursor in a file.

A trainer that restarts should get neither repeated nor skipped games.
resumable_batches() is batches() that starts from the cursor saved in a
file and saves the cursor of each batch once the batch is consumed.
"""

import os

from . import stream


def load_cursor(path):
    """The cursor saved in `path`, or None when there is no such file."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def save_cursor(path, cursor):
    """Writes `cursor` (bytes) to `path` atomically: a temporary file,
    flushed to disk, renamed over `path`."""
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(cursor)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def resumable_batches(server, cursor_path, **options):
    """batches(server, **options) from the cursor saved in `cursor_path`
    (from the start, or options' cursor, when the file does not exist).

    A batch counts as consumed when the caller asks for the next one or
    leaves the loop (break, an exception, close()); its cursor is then
    saved. A process killed while it works on a batch gets that batch
    again when it restarts; every other row comes exactly once over the
    runs. Options as for batches(), except that the saved cursor replaces
    `cursor`.
    """
    saved = load_cursor(cursor_path)
    if saved is not None:
        options["cursor"] = saved
    source = stream.batches(server, **options)
    pending = None  # The cursor of the batch the caller holds.
    try:
        for batch in source:
            pending = batch["cursor"]
            yield batch
            save_cursor(cursor_path, pending)
            pending = None
    finally:
        source.close()  # Cancels the call when the caller left early.
        if pending is not None:
            save_cursor(cursor_path, pending)
