"""Files a command writes where the user asked (`--record`, `--out`, `--plot`).

Where it sits: used by the commands (`tarot.cli.play`, `tarot.cli.simulate`)
and their writers (`tarot.records.record_file`, `tarot.measure.rows`).
`check_output_path` is called before any hand is played, so a path that cannot be written
(a missing folder, a folder given as the file, a name too long, a read-only place, a wrong
extension) is refused at once, naming the path. `PieceFile` writes a file in whole pieces:
a write that fails later (a full disk) is cut back to the last whole piece, so what was
complete stays on disk, and the failure is an `OutputError` saying how much was kept.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tarot.core.stopping import STOPPING
from tarot.errors import TarotError


class OutputError(TarotError):
    """An output path that cannot be used, or a write to it that failed."""


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def check_output_path(flag: str, path: str, suffixes: Sequence[str] = ()) -> None:
    """Refuse `path` for `flag` unless a file can be written there (by opening it to append,
    which changes nothing in an existing file; a file created by the check is removed)."""
    if suffixes and Path(path).suffix.lower() not in suffixes:
        raise OutputError(f"{flag} {path}: name the file " + " or ".join(suffixes))
    parent = Path(path).parent
    try:
        if not parent.is_dir():
            raise OutputError(f"{flag} {path}: no such folder {str(parent)!r}")
        if Path(path).is_dir():
            raise OutputError(f"{flag} {path}: is a folder; give a file name in it")
        existed = os.path.lexists(path)
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    except OSError as error:
        raise OutputError(f"{flag} {path}: cannot write: {_reason(error)}") from error
    os.close(descriptor)
    if not existed:
        os.unlink(path)


class PieceFile:
    """A file written in whole pieces (hands), with an optional tail that closes it.

    After each `add(piece, tail)` the file holds every piece so far followed by `tail` (on a
    regular file the tail is written after each piece and replaced by the next one, so the
    file is complete at every moment; elsewhere, a pipe or a device, the last tail is written
    by `close`). `path` `-` is standard output. A failed write raises `OutputError` after
    cutting a regular file back to its last whole piece and tail, saying what it keeps
    (`keeps`, a template for the number of pieces, as `"the rows of the {} hand(s)"`)."""

    def __init__(self, flag: str, path: str, keeps: str) -> None:
        self.flag, self.path, self.keeps = flag, path, keeps
        self.pieces = 0  # counted ones, on disk
        self._kept = 0  # bytes of whole pieces on disk
        self._tail = b""
        self._failed = False
        if path == "-":
            self._descriptor = None
            self._regular = False
            return
        try:
            self._descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            self._regular = stat.S_ISREG(os.fstat(self._descriptor).st_mode)
        except OSError as error:
            raise OutputError(f"{flag} {path}: cannot write: {_reason(error)}") from error

    def add(self, piece: bytes, tail: bytes = b"", counted: bool = True) -> None:
        """Write `piece` after the others (`counted`: one of those `keeps` counts), then
        `tail`; OutputError if it cannot be written."""
        with held_signals():  # a stop arriving now waits until the piece is whole
            try:
                if self._regular:
                    self._write_at(self._kept, piece + tail)
                    os.ftruncate(self._file(), self._kept + len(piece) + len(tail))
                else:
                    self._write(piece)
            except OSError as error:
                self._failed = True
                self._cut_back()
                kept = self._regular and self.pieces
                raise self._failure(error, kept) from error
            self._kept += len(piece)
            self._tail = tail
            self.pieces += counted

    def close(self) -> None:
        """Write the last tail where it is not on disk yet (unless a write failed), and
        close."""
        try:
            if not self._regular and self._tail and not self._failed:
                self._write(self._tail)
                self._tail = b""
        except OSError as error:
            raise self._failure(error) from error
        finally:
            if self._descriptor is not None:
                os.close(self._descriptor)
                self._descriptor = None

    def _failure(self, error: OSError, kept: int = 0) -> OutputError:
        keeps = f"; the file keeps {self.keeps.format(kept)} before" if kept else ""
        return OutputError(f"{self.flag} {self.path}: cannot write: {_reason(error)}{keeps}")

    def _cut_back(self) -> None:
        """Best effort after a failed write: the whole pieces and their tail, nothing else."""
        if not self._regular:
            return
        try:
            os.ftruncate(self._file(), self._kept)
            self._write_at(self._kept, self._tail)
        except OSError:
            pass

    def _write(self, data: bytes) -> None:
        if self._descriptor is None:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
            return
        view = memoryview(data)
        while view:
            view = view[os.write(self._descriptor, view) :]

    def _file(self) -> int:
        """The descriptor of the regular file written (open from `__init__` to `close`)."""
        assert self._descriptor is not None, "written after close"
        return self._descriptor

    def _write_at(self, offset: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.pwrite(self._file(), view, offset)
            if written == 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            view, offset = view[written:], offset + written


@contextmanager
def held_signals() -> Iterator[None]:
    """Stopping signals that arrive within the block are delivered when it ends."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
