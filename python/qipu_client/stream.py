"""batches(): training batches streamed from a coordinator's TrainingService.

One server-streaming call, TrainingService.Batches (proto/qipu/v1/
train.proto): the request carries the filter, the row options and the
batching; each response is one batch of raw little-endian arrays, wrapped
here as numpy arrays without copying (wire.parse_batch).
"""

import os

import grpc

from qipu.v1 import query_pb2
from qipu.v1 import train_pb2

from . import wire

_METHOD = "/qipu.v1.TrainingService/Batches"

# A batch of 8192 19x19 rows is about 45 MB; allow that with room to spare.
MAX_MESSAGE_BYTES = 1 << 30

_CYCLES = {
    "any": train_pb2.CYCLE_SELECTION_ANY,
    "with": train_pb2.CYCLE_SELECTION_WITH,
    "without": train_pb2.CYCLE_SELECTION_WITHOUT,
}


class QipuError(Exception):
    """A call the server failed (or that failed on the way).

    `code` is the grpc.StatusCode (INVALID_ARGUMENT for a bad filter,
    option or cursor: do not retry; UNAVAILABLE: the server is not there,
    retry later, from the cursor of the last batch received), `message`
    the server's explanation.
    """

    def __init__(self, code, message):
        self.code = code
        self.message = message
        name = code.name if isinstance(code, grpc.StatusCode) else str(code)
        super().__init__(f"{name}: {message}" if message else name)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def channel(server, *, tls_ca=None, tls_cert=None, tls_key=None):
    """A channel to `server` ("host:port") with message limits large enough
    for any batch: plain text, or TLS when `tls_ca` (the PEM file of the CA
    the coordinator's certificate chains to) is given, with a client
    certificate (`tls_cert`, `tls_key`: PEM files) for coordinators that
    require one (mTLS). The caller closes it (channel.close())."""
    options = [
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ]
    if (tls_cert is None) != (tls_key is None):
        raise ValueError("tls_cert and tls_key: give both or neither")
    if tls_ca is None:
        if tls_cert is not None:
            raise ValueError("tls_cert needs tls_ca")
        return grpc.insecure_channel(server, options=options)
    creds = grpc.ssl_channel_credentials(
        root_certificates=_read(tls_ca),
        private_key=_read(tls_key) if tls_key else None,
        certificate_chain=_read(tls_cert) if tls_cert else None)
    return grpc.secure_channel(server, creds, options=options)


def make_filter(*, width=0, height=0, rules="", komi=None, handicap=None,
                source="", job=None, policy="", date_from=0, date_to=0):
    """A qipu.v1.Filter. A width alone (or a height alone) means a square
    board; komi and handicap filter only when given; job=N is
    source="job:N"."""
    if bool(width) != bool(height):
        width = height = width or height
    if job is not None:
        if source:
            raise ValueError("give source or job, not both")
        source = f"job:{int(job)}"
    f = query_pb2.Filter(width=int(width), height=int(height), rules=rules,
                         source=source, policy=policy,
                         date_from=int(date_from), date_to=int(date_to))
    if komi is not None:
        f.has_komi = True
        f.komi = float(komi)
    if handicap is not None:
        f.has_handicap = True
        f.handicap = int(handicap)
    return f


def make_request(*, width=0, height=0, rules="", komi=None, handicap=None,
                 source="", job=None, policy="", date_from=0, date_to=0,
                 cycles="any", drop_void=False, batch_size=256,
                 shuffle_window=4096, seed=0, symmetries=1, pos_len=19,
                 positions_per_game=0, min_move=0, recent_games=0,
                 cursor=None, max_rows=0):
    """The TrainingRequest of batches() (same arguments)."""
    if cycles not in _CYCLES:
        raise ValueError(f"cycles must be one of {sorted(_CYCLES)}, "
                         f"not {cycles!r}")
    return train_pb2.TrainingRequest(
        filter=make_filter(width=width, height=height, rules=rules, komi=komi,
                           handicap=handicap, source=source, job=job,
                           policy=policy, date_from=date_from,
                           date_to=date_to),
        cycles=_CYCLES[cycles],
        drop_void=bool(drop_void),
        pos_len=int(pos_len),
        symmetries=int(symmetries),
        seed=int(seed),
        positions_per_game=int(positions_per_game),
        min_move=int(min_move),
        batch_size=int(batch_size),
        shuffle_window=int(shuffle_window),
        recent_games=int(recent_games),
        cursor=bytes(cursor or b""),
        max_rows=int(max_rows))


def batches(server, *, timeout=None, token=None, tls_ca=None, tls_cert=None,
            tls_key=None, **options):
    """Yields the batches of a TrainingService.Batches stream.

    `server` is "host:port" or a grpc.Channel (made with channel() or with
    equally large message limits; it stays the caller's). The keyword
    options, with their defaults:

      filter   width=0, height=0 (0 = any size; one alone = square),
               rules="" (a preset "chinese" or axes "ko=positional"),
               komi=None, handicap=None (None = any), source="", job=None
               (a self-play job id: source "job:<id>"), policy=""
               ("import" = imported games), date_from=0, date_to=0
               (YYYYMMDD, inclusive), cycles="any"|"with"|"without",
               drop_void=False (skip games without a result)
      rows     pos_len=19, symmetries=1 (or 8), seed=0,
               positions_per_game=0 (0 = every position), min_move=0
      batching batch_size=256 (1..8192), shuffle_window=4096 (rows mixed
               before they are sent; 0 or 1 = game order),
               recent_games=0 (only the last N games of the selection),
               cursor=None (a batch's "cursor": continue after it),
               max_rows=0 (0 = to the end of the selection)

    Each batch is a dict: the eight arrays of train/README.md
    (arrays.MEMBERS; read-only views of the received message, copy before
    writing), "cursor" (bytes: pass it back as cursor= to continue after
    this batch) and "games_done" (games whose rows are all sent so far).
    `timeout` (seconds) bounds the whole stream. `token` is sent as
    `authorization: Bearer <token>` (a coordinator with --auth required
    wants a reader token; default: the environment's QIPU_TOKEN); tls_ca,
    tls_cert and tls_key make the channel as channel() does (for a
    "host:port" server only). Errors come out as
    QipuError with the gRPC code and the server's message. Closing the
    generator early (break, close()) cancels the call.
    """
    request = make_request(**options)
    if token is None:
        token = os.environ.get("QIPU_TOKEN") or None
    metadata = (("authorization", "Bearer " + token),) if token else None
    own = isinstance(server, str)
    ch = (channel(server, tls_ca=tls_ca, tls_cert=tls_cert, tls_key=tls_key)
          if own else server)
    call = None
    try:
        method = ch.unary_stream(
            _METHOD,
            request_serializer=train_pb2.TrainingRequest.SerializeToString,
            response_deserializer=lambda data: data)
        call = method(request, timeout=timeout, metadata=metadata)
        for data in call:
            yield wire.parse_batch(data)
    except grpc.RpcError as e:
        code = e.code() if hasattr(e, "code") else grpc.StatusCode.UNKNOWN
        details = e.details() if hasattr(e, "details") else str(e)
        raise QipuError(code, details or "") from None
    finally:
        if call is not None:
            call.cancel()
        if own:
            ch.close()
