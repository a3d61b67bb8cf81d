"""Every typed message, both directions: text <-> value, and text -> tokens -> bytes -> text."""

from __future__ import annotations

import pytest

from protocol.daide_errors import (
    BracketError,
    EncodeError,
    GrammarError,
    LanguageError,
    UnknownTokenError,
)
from protocol.decoder import Decoder
from protocol.expression import fold, format_tokens, parse_expression, tokenize
from protocol.messages import (
    MESSAGE_TYPES,
    Adm,
    Ccd,
    Drw,
    Frm,
    Gof,
    Hlo,
    Hst,
    Huh,
    Iam,
    Lod,
    Map,
    Mdf,
    Message,
    Mis,
    Nme,
    Not,
    Now,
    Obs,
    Off,
    Ord,
    Out,
    PlayerSummary,
    Prn,
    RawMessage,
    Rej,
    Sco,
    Slo,
    Smr,
    Snd,
    Sub,
    Sve,
    Thx,
    Tme,
    Yes,
    huh_for,
    parse_message,
    parse_text,
    press_replies,
    reply_to_bad_message,
    to_text,
)
from protocol.tokens import TokenTable
from protocol.values import (
    Adjacency,
    Build,
    Convoy,
    Disband,
    Hold,
    Location,
    MapDefinition,
    Move,
    MoveByConvoy,
    OrderResult,
    ProvinceAdjacencies,
    Remove,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Turn,
    Unit,
    UnitPosition,
    UnitType,
    Waive,
)
from protocol.variant import Variant, VariantOption
from protocol.wire import RepresentationMessage, encode_message, encode_representation

A, F = UnitType.ARMY, UnitType.FLEET
SPR1901 = Turn(Season.SPRING, 1901)


def unit(power: str, kind: UnitType, province: str, coast: str | None = None) -> Unit:
    return Unit(power, kind, Location(province, coast))


def loc(province: str, coast: str | None = None) -> Location:
    return Location(province, coast)


SMALL_MAP = MapDefinition(
    powers=("ENG", "FRA"),
    supply_centres=(
        (("ENG",), ("LON",)),
        (("ENG", "FRA"), ("BEL",)),
        (("UNO",), ("SPA",)),
    ),
    non_supply_centres=("NTH", "ECH"),
    adjacencies=(
        ProvinceAdjacencies("LON", (
            Adjacency(A, None, (loc("WAL"),)),
            Adjacency(F, None, (loc("NTH"), loc("ECH"))),
        )),
        ProvinceAdjacencies("SPA", (
            Adjacency(A, None, (loc("POR"), loc("GAS"))),
            Adjacency(F, "NCS", (loc("POR"), loc("MAO"))),
            Adjacency(F, "SCS", (loc("POR"), loc("WES"))),
        )),
        ProvinceAdjacencies("NTH", (Adjacency(F, None, (loc("LON"), loc("STP", "NCS"))),)),
        ProvinceAdjacencies("ECH", ()),
    ),
)  # fmt: skip
SMALL_MAP_TEXT = (
    "MDF ( ENG FRA ) ( ( ( ENG LON ) ( ( ENG FRA ) BEL ) ( UNO SPA ) ) ( NTH ECH ) ) "
    "( ( LON ( AMY WAL ) ( FLT NTH ECH ) ) "
    "( SPA ( AMY POR GAS ) ( ( FLT NCS ) POR MAO ) ( ( FLT SCS ) POR WES ) ) "
    "( NTH ( FLT LON ( STP NCS ) ) ) ( ECH ) )"
)

NOW_TEXT = (
    "NOW ( SPR 1901 ) ( AUS AMY BUD ) ( AUS AMY VIE ) ( AUS FLT TRI ) "
    "( RUS FLT ( STP SCS ) ) ( ENG FLT NTH MRT ( LON YOR ) ) ( TUR FLT CON MRT ( ) )"
)
NOW_VALUE = Now(
    SPR1901,
    (
        UnitPosition(unit("AUS", A, "BUD")),
        UnitPosition(unit("AUS", A, "VIE")),
        UnitPosition(unit("AUS", F, "TRI")),
        UnitPosition(unit("RUS", F, "STP", "SCS")),
        UnitPosition(unit("ENG", F, "NTH"), (loc("LON"), loc("YOR"))),
        UnitPosition(unit("TUR", F, "CON"), ()),
    ),
)

HLO_VARIANT = Variant(
    (
        VariantOption("LVL", (0,)),
        VariantOption("MTL", (3,)),
        VariantOption("RTL", (2,)),
        VariantOption("BTL", (2,)),
        VariantOption("DSD"),
    )
)

SUB_ALL = Sub(
    (
        Hold(unit("ENG", A, "LVP")),
        Move(unit("ENG", F, "LON"), loc("NTH")),
        SupportMove(unit("ENG", F, "EDI"), unit("ENG", F, "LON"), "NTH"),
        SupportHold(unit("ENG", F, "EDI"), unit("ENG", A, "LVP")),
        Convoy(unit("ITA", F, "ION"), unit("ITA", A, "TUN"), "SYR"),
        MoveByConvoy(unit("ITA", A, "TUN"), "SYR", ("ION", "EAS")),
        Move(unit("ENG", F, "BAR"), loc("STP", "NCS")),
    )
)
SUB_ALL_TEXT = (
    "SUB ( ( ENG AMY LVP ) HLD ) ( ( ENG FLT LON ) MTO NTH ) "
    "( ( ENG FLT EDI ) SUP ( ENG FLT LON ) MTO NTH ) ( ( ENG FLT EDI ) SUP ( ENG AMY LVP ) ) "
    "( ( ITA FLT ION ) CVY ( ITA AMY TUN ) CTO SYR ) ( ( ITA AMY TUN ) CTO SYR VIA ( ION EAS ) ) "
    "( ( ENG FLT BAR ) MTO ( STP NCS ) )"
)

PRESS = parse_expression("PRP ( PCE ( ENG FRA ) )")

# (canonical text, typed value): every message a level-0 client meets, both directions.
MESSAGES: list[tuple[str, Message]] = [
    # joining
    ('NME ( "daide-mcts" ) ( "0.1" )', Nme("daide-mcts", "0.1")),
    ("OBS", Obs()),
    ('OBS ( "watcher" ) ( "1.0" )', Obs("watcher", "1.0")),
    ("IAM ( ENG ) ( 3442 )", Iam("ENG", 3442)),
    ('MAP ( "standard" )', Map("standard")),
    ("MAP", Map()),
    ("MDF", Mdf()),
    (SMALL_MAP_TEXT, Mdf(SMALL_MAP)),
    ("HLO ( ENG ) ( 3442 ) ( ( LVL 0 ) ( MTL 3 ) ( RTL 2 ) ( BTL 2 ) ( DSD ) )",
     Hlo("ENG", 3442, HLO_VARIANT)),
    ("HLO ( UNO ) ( 0 ) ( ( LVL 10 ) ( MTL 0 2 ) ( AOA ) ( PDA ) ( NPR ) ( NPB ) ( PTL 60 ) "
     "( VAR \"x\" ( 1 ) ) )",
     Hlo("UNO", 0, Variant((
         VariantOption("LVL", (10,)), VariantOption("MTL", (0, 2)), VariantOption("AOA"),
         VariantOption("PDA"), VariantOption("NPR"), VariantOption("NPB"),
         VariantOption("PTL", (60,)), VariantOption("VAR", ("x", (1,))),
     )))),
    ("HLO", Hlo()),
    # position
    (NOW_TEXT, NOW_VALUE),
    ("NOW", Now()),
    ("SCO ( AUS BUD TRI VIE ) ( UNO BEL BUL )",
     Sco((("AUS", ("BUD", "TRI", "VIE")), ("UNO", ("BEL", "BUL"))))),
    ("SCO", Sco()),
    ("HST ( SPR 1901 )", Hst(SPR1901)),
    # orders
    (SUB_ALL_TEXT, SUB_ALL),
    ("SUB ( ( ENG FLT NTH ) RTO ( SPA SCS ) ) ( ( ENG AMY YOR ) DSB )",
     Sub((Retreat(unit("ENG", F, "NTH"), loc("SPA", "SCS")), Disband(unit("ENG", A, "YOR"))))),
    ("SUB ( ( ITA FLT NAP ) BLD ) ( ( RUS FLT GOB ) REM ) ( ENG WVE )",
     Sub((Build(unit("ITA", F, "NAP")), Remove(unit("RUS", F, "GOB")), Waive("ENG")))),
    ("THX ( ( ENG FLT NTH ) MTO PIC ) ( MBV )",
     Thx(Move(unit("ENG", F, "NTH"), loc("PIC")), "MBV")),
    ("THX ( ENG WVE ) ( NMB )", Thx(Waive("ENG"), "NMB")),
    ("MIS ( ENG FLT NTH ) ( ENG AMY LVP )",
     Mis((UnitPosition(unit("ENG", F, "NTH")), UnitPosition(unit("ENG", A, "LVP"))))),
    ("MIS ( ENG FLT NTH MRT ( LON YOR ) )",
     Mis((UnitPosition(unit("ENG", F, "NTH"), (loc("LON"), loc("YOR"))),))),
    ("MIS ( -2 )", Mis(count=-2)),
    ("MIS ( 1 )", Mis(count=1)),
    ("MIS", Mis()),
    ("GOF", Gof()),
    ("NOT ( GOF )", Not(Gof())),
    ("NOT ( SUB ( ( ENG FLT NTH ) MTO PIC ) )",
     Not(Sub((Move(unit("ENG", F, "NTH"), loc("PIC")),)))),
    ("NOT ( SUB )", Not(Sub())),
    # results
    ("ORD ( SPR 1901 ) ( ( FRA AMY MAR ) SUP ( FRA AMY PAR ) MTO BUR ) ( SUC )",
     Ord(OrderResult(SPR1901, SupportMove(unit("FRA", A, "MAR"), unit("FRA", A, "PAR"), "BUR"),
                     ("SUC",)))),
    ("ORD ( FAL 1901 ) ( ( ENG FLT NTH ) HLD ) ( BNC RET )",
     Ord(OrderResult(Turn(Season.FALL, 1901), Hold(unit("ENG", F, "NTH")), ("BNC", "RET")))),
    ("ORD ( WIN 1901 ) ( RUS WVE ) ( SUC )",
     Ord(OrderResult(Turn(Season.WINTER, 1901), Waive("RUS"), ("SUC",)))),
    ("ORD", Ord()),
    # deadlines, draws, the end
    ("TME ( 3 )", Tme(3)),
    ("TME", Tme()),
    ("NOT ( TME ( 60 ) )", Not(Tme(60))),
    ("NOT ( TME )", Not(Tme())),
    ("DRW", Drw()),
    ("DRW ( ENG FRA GER )", Drw(("ENG", "FRA", "GER"))),
    ("NOT ( DRW )", Not(Drw())),
    ("SLO ( ENG )", Slo("ENG")),
    ('SMR ( WIN 1903 ) ( AUS ( "DumbBot" ) ( "Parlance v1.4.1" ) 3 ) '
     '( ITA ( "daide-mcts" ) ( "0.1" ) 0 1902 )',
     Smr(Turn(Season.WINTER, 1903), (
         PlayerSummary("AUS", "DumbBot", "Parlance v1.4.1", 3),
         PlayerSummary("ITA", "daide-mcts", "0.1", 0, 1902),
     ))),
    ("SMR", Smr()),
    ("OFF", Off()),
    # civil disorder
    ("CCD ( ENG )", Ccd("ENG")),
    ("CCD ( ENG ) ( SPR 1901 )", Ccd("ENG", SPR1901)),
    ("CCD ( ENG ) ( SND ( ENG ) ( TRY ( ) ) )",
     Ccd("ENG", sent=Snd(("ENG",), parse_expression("TRY ( )")))),
    ("NOT ( CCD ( ENG ) )", Not(Ccd("ENG"))),
    ("OUT ( AUS )", Out("AUS")),
    ("OUT ( AUS ) ( SND ( AUS ) ( TRY ( ) ) )",
     Out("AUS", Snd(("AUS",), parse_expression("TRY ( )")))),
    # answers and errors
    ('YES ( NME ( "raw" ) ( "0.1" ) )', Yes(Nme("raw", "0.1"))),
    ('YES ( MAP ( "standard" ) )', Yes(Map("standard"))),
    ("REJ ( ORD )", Rej(Ord())),
    ("YES ( NOT ( GOF ) )", Yes(Not(Gof()))),
    ('REJ ( SEL ( "game" ) )', Rej(RawMessage(parse_expression('SEL ( "game" )')))),
    ("YES ( SUB ( ( ENG FLT NTH ) XDO PIC ) )",
     Yes(RawMessage(parse_expression("SUB ( ( ENG FLT NTH ) XDO PIC )")))),
    ('HUH ( ERR NME ( "x" ) )', Huh(parse_expression('ERR NME ( "x" )'))),
    ("PRN ( NOW ( SPR 1901 )", Prn(tokenize("NOW ( SPR 1901"))),
    ('ADM ( "Server" ) ( "Welcome." )', Adm("Server", "Welcome.")),
    ('SVE ( "game1" )', Sve("game1")),
    ('LOD ( "game1" )', Lod("game1")),
    # press, read generically
    ("FRM ( ENG ) ( FRA GER ) ( PRP ( PCE ( ENG FRA ) ) )", Frm("ENG", ("FRA", "GER"), PRESS)),
    ("SND ( ENG ) ( HUH ( ERR PRP ( PCE ( ENG FRA ) ) ) )",
     Snd(("ENG",), parse_expression("HUH ( ERR PRP ( PCE ( ENG FRA ) ) )"))),
    ('FRM ( ENG ) ( FRA ) ( "free text" )', Frm("ENG", ("FRA",), ("free text",))),
    # the turn form (MILA's server needs it to one recipient)
    ("SND ( SPR 1901 ) ( ENG ) ( TRY ( ) )",
     Snd(("ENG",), parse_expression("TRY ( )"), SPR1901)),
    # the server's answers to what a client sends, and the client's to SVE and LOD
    ('REJ ( NME ( "daide-mcts" ) ( "0.1" ) )', Rej(Nme("daide-mcts", "0.1"))),
    ("YES ( OBS )", Yes(Obs())),
    ("REJ ( OBS )", Rej(Obs())),
    ("YES ( IAM ( ENG ) ( 3442 ) )", Yes(Iam("ENG", 3442))),
    ("REJ ( IAM ( ENG ) ( 3442 ) )", Rej(Iam("ENG", 3442))),
    ('REJ ( MAP ( "standard" ) )', Rej(Map("standard"))),
    ("REJ ( NOW )", Rej(Now())),
    ("REJ ( SCO )", Rej(Sco())),
    ("REJ ( HLO )", Rej(Hlo())),
    ("REJ ( MDF )", Rej(Mdf())),
    ("REJ ( HST ( SPR 1901 ) )", Rej(Hst(SPR1901))),
    ("REJ ( SUB ( ( ENG FLT NTH ) HLD ) )", Rej(Sub((Hold(unit("ENG", F, "NTH")),)))),
    ("YES ( GOF )", Yes(Gof())),
    ("REJ ( NOT ( GOF ) )", Rej(Not(Gof()))),
    ("YES ( TME ( 60 ) )", Yes(Tme(60))),
    ("REJ ( TME ( 60 ) )", Rej(Tme(60))),
    ("YES ( NOT ( TME ) )", Yes(Not(Tme()))),
    ("YES ( DRW )", Yes(Drw())),
    ("REJ ( DRW ( ENG FRA ) )", Rej(Drw(("ENG", "FRA")))),
    ("YES ( NOT ( DRW ) )", Yes(Not(Drw()))),
    ('REJ ( ADM ( "daide-mcts" ) ( "hello" ) )', Rej(Adm("daide-mcts", "hello"))),
    ('YES ( SVE ( "game1" ) )', Yes(Sve("game1"))),
    ('REJ ( SVE ( "game1" ) )', Rej(Sve("game1"))),
    ('YES ( LOD ( "game1" ) )', Yes(Lod("game1"))),
    ('REJ ( LOD ( "game1" ) )', Rej(Lod("game1"))),
    ("HUH ( PRP ERR )", Huh(parse_expression("PRP ERR"))),
    # more of what movement, retreat and winter phases report
    ("ORD ( SPR 1901 ) ( ( ENG FLT NTH ) SUP ( ENG AMY YOR ) MTO NWY ) ( CUT RET )",
     Ord(OrderResult(SPR1901, SupportMove(unit("ENG", F, "NTH"), unit("ENG", A, "YOR"), "NWY"),
                     ("CUT", "RET")))),
    ("ORD ( SPR 1901 ) ( ( ENG AMY YOR ) CTO NWY VIA ( NTH ) ) ( DSR )",
     Ord(OrderResult(SPR1901, MoveByConvoy(unit("ENG", A, "YOR"), "NWY", ("NTH",)), ("DSR",)))),
    ("ORD ( SPR 1901 ) ( ( ENG FLT NTH ) CVY ( ENG AMY YOR ) CTO NWY ) ( NSO RET )",
     Ord(OrderResult(SPR1901, Convoy(unit("ENG", F, "NTH"), unit("ENG", A, "YOR"), "NWY"),
                     ("NSO", "RET")))),
    ("ORD ( SUM 1901 ) ( ( ENG FLT NTH ) RTO NWG ) ( BNC )",
     Ord(OrderResult(Turn(Season.SUMMER, 1901), Retreat(unit("ENG", F, "NTH"), loc("NWG")),
                     ("BNC",)))),
    ("ORD ( AUT 1901 ) ( ( ENG FLT NTH ) DSB ) ( SUC )",
     Ord(OrderResult(Turn(Season.AUTUMN, 1901), Disband(unit("ENG", F, "NTH")), ("SUC",)))),
    ("ORD ( WIN 1901 ) ( ( RUS FLT ( STP NCS ) ) BLD ) ( FLD )",
     Ord(OrderResult(Turn(Season.WINTER, 1901), Build(unit("RUS", F, "STP", "NCS")), ("FLD",)))),
    ("ORD ( WIN 1901 ) ( ( GER AMY MUN ) REM ) ( SUC )",
     Ord(OrderResult(Turn(Season.WINTER, 1901), Remove(unit("GER", A, "MUN")), ("SUC",)))),
    ("NOT ( CCD ( ENG ) ( FAL 1905 ) )", Not(Ccd("ENG", Turn(Season.FALL, 1905)))),
]  # fmt: skip

THX_NOTES = ("MBV", "FAR", "NSP", "NSU", "NAS", "NSF", "NSA", "NYU", "NRN", "NVR", "YSC",
             "ESC", "HSC", "NSC", "CST", "NMB", "NMR", "NRS")  # fmt: skip
MESSAGES += [
    (f"THX ( ( ENG FLT NTH ) MTO NWG ) ( {note} )",
     Thx(Move(unit("ENG", F, "NTH"), loc("NWG")), note))
    for note in THX_NOTES
]  # fmt: skip

# The message types issue 2 lists for press level 0, by the tokens their text starts with.
SERVER_TO_CLIENT = (
    "MAP", "MDF", "HLO", "NOW", "SCO", "ORD", "THX", "MIS", "TME", "DRW", "SLO", "SMR", "OFF",
    "CCD", "NOT ( CCD", "OUT", "HUH", "PRN", "YES", "REJ", "ADM", "SVE", "LOD", "FRM",
)  # fmt: skip
CLIENT_TO_SERVER = (
    "NME", "OBS", "IAM", "MAP", "MDF", "YES", "REJ", "HLO", "NOW", "SCO", "HST", "SUB", "MIS",
    "GOF", "NOT ( GOF", "TME", "DRW", "NOT ( DRW", "ADM", "HUH",
)  # fmt: skip
HLO_OPTIONS = ("LVL", "MTL", "RTL", "BTL", "DSD", "AOA", "PDA", "NPR", "NPB", "PTL")


@pytest.mark.parametrize("start", sorted(set(SERVER_TO_CLIENT + CLIENT_TO_SERVER)))
def test_every_listed_message_type_has_round_trip_rows(start: str) -> None:
    rows = [text for text, _ in MESSAGES if text == start or text.startswith(start + " ")]
    assert rows, f"no round-trip row for {start}"


@pytest.mark.parametrize("option", HLO_OPTIONS)
def test_every_variant_option_has_a_round_trip_row(option: str) -> None:
    assert any(text.startswith("HLO") and f"( {option}" in text for text, _ in MESSAGES)


@pytest.mark.parametrize(("text", "message"), MESSAGES, ids=[t[:40] for t, _ in MESSAGES])
def test_text_to_typed(text: str, message: Message) -> None:
    assert parse_text(text) == message


@pytest.mark.parametrize(("text", "message"), MESSAGES, ids=[t[:40] for t, _ in MESSAGES])
def test_typed_to_text(text: str, message: Message) -> None:
    assert message.to_text() == text
    assert to_text(message) == text
    assert str(message) == text


@pytest.mark.parametrize(("text", "message"), MESSAGES, ids=[t[:40] for t, _ in MESSAGES])
def test_text_tokens_bytes_tokens_text(text: str, message: Message) -> None:
    tokens = tokenize(text)
    assert message.to_tokens() == tokens
    decoder = Decoder()
    received = list(decoder.feed(encode_representation() + encode_message(message)))
    assert isinstance(received[0], RepresentationMessage)
    assert received[1].tokens == tokens  # type: ignore[union-attr]
    assert format_tokens(received[1].tokens) == text  # type: ignore[union-attr]
    assert parse_message(received[1].tokens) == message  # type: ignore[union-attr]
    if not isinstance(message, Prn):  # a PRN's brackets do not balance: no expression
        assert parse_message(fold(tokens)) == message


def test_every_message_class_is_in_the_table() -> None:
    covered = {type(message) for _, message in MESSAGES}
    assert set(MESSAGE_TYPES) - covered == set()


# (text, error class, token index of the culprit)
BAD_MESSAGES = [
    ("NOW ( SPR 1901 ) ( AUS AMY BUD", BracketError, 5),
    ("NOW ( SPR 1901 ) ) ( AUS AMY BUD )", BracketError, 5),
    ("NOW ( SPR 1901 ) ( AUS AMY 0x5123 )", UnknownTokenError, 8),
    ("NOW ( SPR 1901 ) ( AUS AMY MTO )", GrammarError, 8),
    ("NOW ( 1901 SPR )", GrammarError, 2),
    ("SCO ( AUS BUD TRI VIE ) ( UNO MTO )", GrammarError, 9),
    ("HLO ( ENG ) ( 12 ) ( ( LVL ) )", GrammarError, 10),
    ("HLO ( ENG ) ( 12 ) ( ( DSD 3 ) )", GrammarError, 10),
    ("HLO ( ENG ) ( 12 )", GrammarError, 7),
    ("ORD ( SPR 1901 ) ( ( ENG FLT NTH ) HLD ) ( MBV )", GrammarError, 14),
    ("ORD ( SPR 1901 ) ( ( ENG FLT NTH ) HLD ) ( )", GrammarError, 14),
    ("THX ( ( ENG FLT NTH ) HLD ) ( SUC )", GrammarError, 10),
    ("TME ( 3 ) ( 4 )", GrammarError, 4),
    ("TME ( \"3\" )", GrammarError, 2),
    ("MAP ( NTH )", GrammarError, 2),
    ("NOT ( 0x4F4F )", UnknownTokenError, 2),
    ("NOT ( 0x4C05 )", UnknownTokenError, 2),
    ("NOT ( XDO )", GrammarError, 2),
    ("SEL ( \"game\" )", GrammarError, 0),
    ("PCE ( ENG FRA )", GrammarError, 0),
    ("1901", GrammarError, 0),
    ("", GrammarError, 0),
    ("GOF GOF", GrammarError, 1),
    ("DRW ( ENG UNO )", GrammarError, 3),
    ("CCD ( ENG ) ( MTO )", GrammarError, 5),
    ("SUB ( ( ENG FLT NTH ) MTO PIC ) ( )", GrammarError, 11),
    ("SMR ( WIN 1903 ) ( AUS ( \"a\" ) ( \"b\" ) 3 4 5 )", GrammarError, 15),
    ("MIS ( 1 2 )", GrammarError, 3),
    ("IAM ( UNO ) ( 1 )", GrammarError, 2),
]  # fmt: skip


@pytest.mark.parametrize(("text", "error", "index"), BAD_MESSAGES)
def test_bad_messages_raise_typed_errors_with_the_index(
    text: str, error: type[LanguageError], index: int
) -> None:
    with pytest.raises(error) as info:
        parse_message(tokenize(text))
    assert info.value.index == index


def test_reply_to_a_grammar_error_is_huh_with_err_before_the_culprit() -> None:
    tokens = tokenize("SCO ( AUS BUD TRI VIE ) ( UNO MTO )")
    with pytest.raises(LanguageError) as info:
        parse_message(tokens)
    reply = reply_to_bad_message(tokens, info.value)
    assert reply is not None
    assert reply.to_text() == "HUH ( SCO ( AUS BUD TRI VIE ) ( UNO ERR MTO ) )"
    assert isinstance(reply, Huh) and reply.error_index() == 9


def test_reply_to_an_unknown_token_keeps_it() -> None:
    tokens = tokenize("NOW ( SPR 1901 ) ( AUS AMY 0x5123 )")
    with pytest.raises(LanguageError) as info:
        parse_message(tokens)
    reply = reply_to_bad_message(tokens, info.value)
    assert reply is not None
    assert reply.to_text() == "HUH ( NOW ( SPR 1901 ) ( AUS AMY ERR 0x5123 ) )"
    assert parse_text(reply.to_text()) == reply


def test_reply_to_a_bracket_error_is_prn() -> None:
    tokens = tokenize("NOW ( SPR 1901 ) ( AUS AMY BUD")
    with pytest.raises(BracketError) as info:
        parse_message(tokens)
    reply = reply_to_bad_message(tokens, info.value)
    assert reply == Prn(tokens)
    assert reply.to_text() == "PRN ( NOW ( SPR 1901 ) ( AUS AMY BUD )"


@pytest.mark.parametrize("text", ["HUH ( ERR 0x5123 ) )", "PRN ( ( ( )"])
def test_never_answer_huh_or_prn(text: str) -> None:
    tokens = tokenize(text)
    error = GrammarError("whatever", 0)
    assert reply_to_bad_message(tokens, error) is None


def test_huh_for_clamps_the_index() -> None:
    tokens = tokenize("GOF GOF")
    assert huh_for(tokens, 99).to_text() == "HUH ( GOF GOF ERR )"
    assert huh_for(tokens, None).to_text() == "HUH ( ERR GOF GOF )"


def test_press_gets_the_level_zero_answer() -> None:
    frm = parse_text("FRM ( ENG ) ( FRA ) ( PRP ( PCE ( ENG FRA ) ) )")
    assert isinstance(frm, Frm)
    assert [m.to_text() for m in press_replies(frm)] == [
        "SND ( ENG ) ( HUH ( ERR PRP ( PCE ( ENG FRA ) ) ) )",
        "SND ( ENG ) ( TRY ( ) )",
    ]


@pytest.mark.parametrize(
    "text", ["FRM ( ENG ) ( FRA ) ( TRY ( PCE ) )", "FRM ( ENG ) ( FRA ) ( HUH ( ERR PCE ) )"]
)
def test_press_that_must_not_be_answered(text: str) -> None:
    frm = parse_text(text)
    assert isinstance(frm, Frm)
    assert press_replies(frm) == ()


def test_variant_accessors() -> None:
    hlo = parse_text("HLO ( ENG ) ( 3442 ) ( ( LVL 0 ) ( MTL 3 ) ( RTL 2 ) ( BTL 2 ) ( DSD ) )")
    assert isinstance(hlo, Hlo)
    v = hlo.variant
    assert (v.level, v.move_time_limit, v.retreat_time_limit, v.build_time_limit) == (0, 3, 2, 2)
    assert v.deadline_stops and not v.any_orders_accepted and not v.partial_draws_allowed
    assert v.press_time_limit is None and not v.no_press_builds and not v.no_press_retreats
    assert Variant.of(0, move_time_limit=3, retreat_time_limit=2, build_time_limit=2,
                      deadline_stops=True) == v  # fmt: skip


def test_long_deadlines_in_hours() -> None:
    hlo = parse_text("HLO ( ENG ) ( 1 ) ( ( LVL 0 ) ( MTL 0 2 ) ( RTL -3 ) ( PTL 30 ) ( AOA ) )")
    assert isinstance(hlo, Hlo)
    v = hlo.variant
    assert (v.move_time_limit, v.retreat_time_limit, v.press_time_limit) == (7200, 10800, 30)
    assert v.any_orders_accepted and v.get("VAR") is None


def test_messages_in_a_variant_table() -> None:
    table = TokenTable([(0x4100, "NTH"), (0x4101, "STH"), (0x5500, "ONE"), (0x5501, "TWO")])
    text = "NOW ( FAL 2000 ) ( NTH AMY ONE ) ( STH FLT TWO MRT ( ONE ) )"
    now = parse_text(text, table)
    assert now == Now(Turn(Season.FALL, 2000), (
        UnitPosition(unit("NTH", A, "ONE")),
        UnitPosition(unit("STH", F, "TWO"), (loc("ONE"),)),
    ))  # fmt: skip
    assert now.to_text(table) == text
    with pytest.raises(EncodeError):
        now.to_tokens()  # the standard table has no NTH power
    with pytest.raises(UnknownTokenError):
        parse_message(now.to_tokens(table))  # standard table: 0x5500 is no province


def test_unknown_province_token_is_an_unknown_token_error() -> None:
    tokens = (*tokenize("SCO ( AUS BUD"), 0x5160, 0x4001)
    with pytest.raises(UnknownTokenError) as info:
        parse_message(tokens)
    assert info.value.index == 4


def test_expression_input_is_accepted() -> None:
    assert parse_message(parse_expression("TME ( 3 )")) == Tme(3)
