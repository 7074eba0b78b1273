"""Answers as plain Python data, and as pandas DataFrames.

to_dict() turns any qipu.v1 message into a dict keyed by the proto's field
names, with every field present (unset ones at their defaults), nested
messages as dicts, repeated fields as lists, maps as dicts, 64-bit counts
as ints (not the strings of protobuf's JSON mapping) and enum values as
short lower-case names: Color COLOR_BLACK -> "black", CycleClass
CYCLE_CLASS_TRIPLE_KO -> "triple_ko"; an *_UNSPECIFIED value -> None.

frame() makes a DataFrame from such dicts, one row each, nested dicts
flattened into columns: an "outcomes" member into its own columns
("games", "black_wins", ...), any other member "m" into "m_<key>"
columns ("black" {"name", "rank"} -> "black_name", "black_rank"). Lists
stay lists in their cell. pandas is imported only there (Debian's
python3-pandas); without it frame() raises ImportError saying so.
"""

import re

from google.protobuf.descriptor import FieldDescriptor

_PANDAS_MISSING = ("as_frame=True needs pandas (Debian: apt-get install "
                   "python3-pandas; ops/bootstrap installs it); without it "
                   "the answers are plain dicts")


def _enum_prefix(enum_type):
    """"CycleClass" -> "CYCLE_CLASS_": the prefix of the enum's values."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", enum_type.name).upper() + "_"


def enum_name(enum_type, number):
    """The short name of value `number` of `enum_type` (an EnumDescriptor):
    lower case without the type's prefix, None for *_UNSPECIFIED, the
    number itself for a value this client's proto does not know."""
    value = enum_type.values_by_number.get(number)
    if value is None:
        return number
    name = value.name
    prefix = _enum_prefix(enum_type)
    if name.startswith(prefix):
        name = name[len(prefix):]
    return None if name == "UNSPECIFIED" else name.lower()


def _scalar(field, value):
    if field.type == FieldDescriptor.TYPE_ENUM:
        return enum_name(field.enum_type, value)
    return value


def _is_map(field):
    return (field.type == FieldDescriptor.TYPE_MESSAGE and
            field.message_type.GetOptions().map_entry)


def to_dict(message):
    """`message` (a protobuf message) as a dict, as the module says."""
    out = {}
    for field in message.DESCRIPTOR.fields:
        value = getattr(message, field.name)
        if _is_map(field):
            value_field = field.message_type.fields_by_name["value"]
            if value_field.type == FieldDescriptor.TYPE_MESSAGE:
                out[field.name] = {k: to_dict(v) for k, v in value.items()}
            else:
                out[field.name] = {k: _scalar(value_field, v)
                                   for k, v in value.items()}
        elif field.label == FieldDescriptor.LABEL_REPEATED:
            if field.type == FieldDescriptor.TYPE_MESSAGE:
                out[field.name] = [to_dict(v) for v in value]
            else:
                out[field.name] = [_scalar(field, v) for v in value]
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            out[field.name] = to_dict(value)
        else:
            out[field.name] = _scalar(field, value)
    return out


def flatten(row):
    """One table row from a dict: nested dicts into columns (an "outcomes"
    member without a prefix, others as "<member>_<key>", recursively)."""
    flat = {}
    for key, value in row.items():
        if isinstance(value, dict):
            prefix = "" if key == "outcomes" else key + "_"
            for k, v in flatten(value).items():
                flat[prefix + k] = v
        else:
            flat[key] = value
    return flat


def pandas():
    """The pandas module, or ImportError saying how to install it."""
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError(_PANDAS_MISSING) from e
    return pd


def frame(rows, columns=None, attrs=None):
    """A pandas DataFrame of `rows` (dicts, flattened by flatten()), with
    `columns` (the column order when there are no rows) and `attrs` (put in
    DataFrame.attrs: what the answer holds beside its table)."""
    pd = pandas()
    flat = [flatten(r) for r in rows]
    df = pd.DataFrame(flat) if flat else pd.DataFrame(columns=columns or [])
    if attrs:
        df.attrs.update(attrs)
    return df
