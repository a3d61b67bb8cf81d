"""The core's answers to the server's smaller messages: ORD, CCD, OUT, SVE, LOD, ADM, NOT, HUH."""

from __future__ import annotations

import pytest

from adjudicator.daide import load_position
from bot.client.core import events as ev
from bot.client.core import notes
from bot.client.core.core import BotCore, CoreSettings
from bot.client.core.effects import CancelSearch, GiveUp
from bot.client.core.negotiator import TRUST_AFTER_BREAK
from protocol.daide_errors import EncodeError
from protocol.expression import fold
from protocol.messages import (
    Adm,
    Ccd,
    Drw,
    Frm,
    Gof,
    Huh,
    Iam,
    Lod,
    Message,
    Mis,
    Nme,
    Not,
    Ord,
    Out,
    PlayerSummary,
    Prn,
    Rej,
    Smr,
    Snd,
    Sub,
    Sve,
    Tme,
    Yes,
)
from protocol.press import Accept, Cancel, Fact, Negation, Peace, Press, Proposal, Reject
from protocol.tokens import BRA, ERR, KET, PCE, PRP, SND, STANDARD
from protocol.values import (
    Hold,
    Location,
    Move,
    OrderResult,
    Season,
    Turn,
    Unit,
    UnitType,
)
from protocol.variant import Variant
from tests.bot.client.core.driver import PASSCODE, Driver, job_of, noted, of, opening, sent

SPRING = Turn(Season.SPRING, 1901)
FALL = Turn(Season.FALL, 1901)
PARIS = Unit("FRA", UnitType.ARMY, Location("PAR"))


RETREAT = load_position(
    "NOW ( SUM 1901 ) ( FRA AMY BUR ) ( FRA FLT BRE ) ( GER AMY MUN ) "
    "( FRA AMY PAR MRT ( GAS PIC ) )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)
WINTER = load_position(
    "NOW ( WIN 1901 ) ( FRA AMY BUR ) ( FRA FLT MAO )",
    "SCO ( FRA BRE MAR PAR ) ( GER BER KIE MUN )",
)


def huh(message: Message) -> Huh:
    """The server's HUH for ``message``, its ERR after the first token."""
    tokens = message.to_tokens(STANDARD)
    return Huh(fold((tokens[0], ERR, *tokens[1:]), STANDARD))


def in_spring() -> Driver:
    d = Driver()
    d.join()
    d.show(opening())
    return d


def test_an_order_result_of_the_phase_is_noted_as_it_came() -> None:
    d = in_spring()
    order = Move(PARIS, Location("BUR"))
    out = d.say(Ord(OrderResult(SPRING, order, ("BNC",))))
    assert noted(out, notes.OrderResulted) == [notes.OrderResulted(SPRING, order, ("BNC",))]
    assert noted(out, notes.MessageIgnored) == []
    assert d.core.mirror.pending == [OrderResult(SPRING, order, ("BNC",))]


def test_an_order_result_that_does_not_fit_is_ignored_with_its_reason() -> None:
    d = in_spring()
    ghost = Hold(Unit("FRA", UnitType.FLEET, Location("NAO")))
    out = d.say(Ord(OrderResult(SPRING, ghost, ("SUC",))))
    (ignored,) = noted(out, notes.MessageIgnored)
    assert ignored.reason == "ORD for (FRA FLT NAO), which is not on the board"
    assert ignored.text == "ORD ( SPR 1901 ) ( ( FRA FLT NAO ) HLD ) ( SUC )"
    assert ignored.kind == "ORD"
    assert noted(out, notes.OrderResulted) == []
    out = d.say(Ord(OrderResult(FALL, Hold(PARIS), ("SUC",))))
    (ignored,) = noted(out, notes.MessageIgnored)
    assert ignored.reason == "ORD for FAL 1901 while the phase is SPR 1901"
    assert d.core.mirror.pending == []


def test_civil_disorder_is_noted_as_ours_only_for_our_power() -> None:
    d = in_spring()
    out = d.say(Ccd("FRA", SPRING), Ccd("ENG"))
    assert noted(out, notes.CivilDisorder) == [
        notes.CivilDisorder("FRA", SPRING, True),
        notes.CivilDisorder("ENG", None, False),
    ]


def test_an_eliminated_power_is_noted() -> None:
    d = in_spring()
    assert noted(d.say(Out("ITA")), notes.PowerEliminated) == [notes.PowerEliminated("ITA")]


def test_a_save_is_agreed_to() -> None:
    d = in_spring()
    assert sent(d.say(Sve("game1"))) == [Yes(Sve("game1"))]


@pytest.mark.parametrize(("power", "passcode"), [(None, PASSCODE), ("FRA", None)])
def test_a_load_is_refused_while_we_know_only_our_power_or_our_passcode(
    power: str | None, passcode: int | None
) -> None:
    settings = CoreSettings(name="test", version="1", rejoin_power=power, rejoin_passcode=passcode)
    d = Driver(core=BotCore(settings))
    d.open()
    assert sent(d.say(Lod("game1"))) == [Rej(Lod("game1"))]


def test_a_tme_past_the_phase_s_limit_is_ignored_with_its_reason() -> None:
    d = in_spring()  # 10 s a movement phase
    out = d.say(Tme(60))
    assert noted(out, notes.MessageIgnored) == [
        notes.MessageIgnored("TME of 60 s in a phase of at most 10 s", "TME ( 60 )", "TME")
    ]


def test_a_mis_before_the_first_phase_is_noted_and_nothing_more() -> None:
    d = Driver()
    d.join()
    out = d.say(Mis())
    assert noted(out, notes.HandlerError) == []
    assert sent(out) == []


def test_a_lost_connection_before_it_opened_is_no_error() -> None:
    d = Driver()
    assert noted(d.lose(), notes.HandlerError) == []


def test_a_load_is_answered_with_who_we_are_once_we_know_it() -> None:
    d = Driver()
    d.open()
    assert sent(d.say(Lod("game1"))) == [Rej(Lod("game1"))]
    d = in_spring()
    assert sent(d.say(Lod("game1"))) == [Iam("FRA", PASSCODE)]


def test_an_admin_message_and_a_notice_are_noted_for_the_console() -> None:
    d = in_spring()
    out = d.say(Adm("Server", "The game starts soon"))
    assert noted(out, notes.ServerNotice) == [
        notes.ServerNotice("The game starts soon", sender="Server")
    ]
    out = d.say(Not(Ccd("ENG")))
    assert noted(out, notes.ServerNotice) == [notes.ServerNotice("NOT ( CCD ( ENG ) )")]


def test_a_huh_for_our_orders_resubmits_our_set_once_per_phase() -> None:
    d = in_spring()
    (first,) = sent(d.log, Sub)
    (again,) = sent(d.say(huh(Sub((Hold(PARIS),)))), Sub)
    assert again.orders == first.orders
    assert sent(d.say(huh(Gof())), Sub) == []


def test_a_huh_in_a_retreat_resends_our_retreat() -> None:
    d = in_spring()
    (first,) = sent(d.show(RETREAT), Sub)
    (again,) = sent(d.say(huh(Sub((Hold(PARIS),)))), Sub)
    assert again.orders == first.orders
    assert [o.unit for o in again.orders] == [PARIS]
    (build,) = sent(d.show(WINTER), Sub)
    assert sent(d.say(huh(Gof())), Sub) == [build]  # once per phase: this is the winter's


def test_a_refused_nme_before_we_ever_joined_gives_up_with_the_servers_words() -> None:
    d = Driver()
    d.open()
    out = d.say(Rej(Nme("test", "1")))
    assert noted(out, notes.Refused) == [notes.Refused('NME ( "test" ) ( "1" )')]
    assert of(out, GiveUp) == [
        GiveUp('the server refused to let us join: REJ ( NME ( "test" ) ( "1" ) )')
    ]


def test_a_refused_iam_forgets_who_we_were_and_plays_as_new() -> None:
    d = in_spring()
    d.later(1).lose()
    d.open()
    out = d.say(Rej(Iam("FRA", PASSCODE)))
    assert sent(out) == [Nme("test", "1")]
    assert noted(out, notes.Refused) == [notes.Refused(f"IAM ( FRA ) ( {PASSCODE} )")]
    assert of(out, GiveUp) == []
    core = d.core
    assert (core.power, core.passcode, core.hlo, core.player.replaying) == (None, None, None, False)


def test_a_refused_nme_after_we_joined_once_is_only_noted() -> None:
    d = in_spring()
    d.later(1).lose()
    d.open()
    d.core.power = None  # as after a refused IAM: the greeting was NME
    out = d.say(Rej(Iam("FRA", PASSCODE)))
    assert sent(out) == [Nme("test", "1")]
    out = d.say(Rej(Nme("test", "1")))
    assert of(out, GiveUp) == [] and sent(out) == []
    assert noted(out, notes.Refused) == [notes.Refused('NME ( "test" ) ( "1" )')]


def test_the_scores_name_our_centres_and_the_result_its_text() -> None:
    d = in_spring()
    out = d.later(1).say(Drw())
    assert noted(out, notes.GameResult) == [notes.GameResult("DRW")]
    players = (
        PlayerSummary("ENG", "a", "1", 5),
        PlayerSummary("FRA", "test", "1", 7),
        PlayerSummary("GER", "b", "1", 3, 1905),
    )
    out = d.say(Smr(SPRING, players))
    (scores,) = noted(out, notes.ScoresReceived)
    assert scores.centres == 7
    assert scores.text.startswith('SMR ( SPR 1901 ) ( ENG ( "a" ) ( "1" ) 5 )')


def test_scores_without_our_line_name_no_centres() -> None:
    d = in_spring()
    out = d.say(Smr(SPRING, (PlayerSummary("ENG", "a", "1", 5),)))
    assert [s.centres for s in noted(out, notes.ScoresReceived)] == [None]
    assert not d.core.game_over  # no result yet


def test_a_huh_is_noted_with_its_text_and_one_for_our_press_is_counted_each_time() -> None:
    d = in_spring()
    press = Snd(("GER",), fold(Fact(Negation(Peace(("FRA", "GER")))).to_tokens(STANDARD), STANDARD))
    for times in (1, 2):
        out = d.say(huh(press))
        (said,) = noted(out, notes.NotUnderstood)
        assert said.reply.startswith("HUH ( SND ERR ( GER ) ")
        assert d.core.negotiator.counts["press_refused_by_server"] == times
        assert sent(out, Sub) == []
    out = d.say(Prn((SND,)))
    assert len(noted(out, notes.NotUnderstood)) == 1
    assert len(sent(out, Sub)) == 1  # a bracket error may be in our orders: resubmitted


@pytest.mark.parametrize("strategy", ["dumbbot", "random"])
def test_a_heuristic_player_submits_its_policys_orders_in_every_phase(strategy: str) -> None:
    settings = CoreSettings(name="test", version="1", seed=7, strategy=strategy)
    d = Driver(core=BotCore(settings))
    d.join()
    out = d.show(opening())
    (spring,) = sent(out, Sub)
    assert any(isinstance(o, Move) for o in spring.orders)
    assert len(spring.orders) == 3
    assert noted(out, notes.QuickOrdersFailed) == [] and noted(out, notes.PhaseFailed) == []
    out = d.show(RETREAT)
    (retreat,) = sent(out, Sub)
    assert [o.unit for o in retreat.orders] == [PARIS]  # type: ignore[attr-defined]
    assert noted(out, notes.PhaseFailed) == []


def press_game() -> Driver:
    d = Driver(core=BotCore(CoreSettings(name="test", version="1", seed=7)))
    d.join(Variant.of(10, move_time_limit=10))
    d.show(opening())
    return d


def frm(sender: str, press: Press) -> Frm:
    return Frm(sender, ("FRA",), fold(press.to_tokens(STANDARD), STANDARD))


def test_press_heard_is_noted_with_what_we_did_with_it() -> None:
    d = press_game()
    peace = Proposal(Peace(("FRA", "TUR")))
    (heard,) = noted(d.say(frm("TUR", peace)), notes.PressIn)
    assert heard == notes.PressIn(
        "TUR", frm("TUR", peace).to_text(STANDARD), "Accept; made peace TUR"
    )
    (heard,) = noted(d.say(frm("TUR", Cancel(peace))), notes.PressIn)
    assert heard.reaction == "cancelled peace TUR"
    (heard,) = noted(d.say(frm("RUS", Fact(Peace(("FRA", "RUS"))))), notes.PressIn)
    assert heard.reaction == "noted"


def test_closing_ends_the_phase_in_play_once_and_stops_its_search() -> None:
    d = Driver()
    d.join()
    job = job_of(d.show(opening())).job_id
    out = d.feed(ev.Closing(d.now))
    assert [c.job_id for c in of(out, CancelSearch)] == [job]
    assert [n.turn for n in noted(out, notes.PhaseEnded)] == [SPRING]
    assert d.core.phase is None
    out = d.feed(ev.Closing(d.now))
    assert noted(out, notes.PhaseEnded) == [] and of(out, CancelSearch) == []


def test_an_agreement_made_then_broken_by_an_order_result_is_noted_in_full() -> None:
    d = press_game()
    peace = Proposal(Peace(("ENG", "FRA")))
    (made,) = noted(d.say(frm("ENG", peace)), notes.AgreementChanged)
    assert made == notes.AgreementChanged(
        "made", "ENG", "peace", "PCE ( ENG FRA )", SPRING, "", 1.0
    )
    attack = Move(Unit("ENG", UnitType.FLEET, Location("LON")), Location("BRE"))
    out = d.say(Ord(OrderResult(SPRING, attack, ("BNC",))))
    (broken,) = noted(out, notes.AgreementChanged)
    assert broken == notes.AgreementChanged(
        "broken",
        "ENG",
        "peace",
        "PCE ( ENG FRA )",
        SPRING,
        "Move ENG LON attacks us at BRE",
        TRUST_AFTER_BREAK,
    )


def test_a_peace_of_three_is_noted_with_each_agreement_it_made() -> None:
    d = press_game()
    (heard,) = noted(d.say(frm("TUR", Proposal(Peace(("FRA", "RUS", "TUR"))))), notes.PressIn)
    assert heard.reaction == "Accept; made peace RUS, made peace TUR"


def test_a_proposal_before_the_first_phase_is_answered_once_the_phase_is_in() -> None:
    d = Driver(core=BotCore(CoreSettings(name="test", version="1", seed=7)))
    d.join(Variant.of(10, move_time_limit=10))
    peace = Proposal(Peace(("FRA", "TUR")))
    out = d.say(frm("TUR", peace))
    assert noted(out, notes.HandlerError) == [] and sent(out, Snd) == []
    out = d.show(opening())
    accept = fold(Accept(peace).to_tokens(STANDARD), STANDARD)
    assert [m.press for m in sent(out, Snd) if m.recipients == ("TUR",)] == [accept]


def test_press_not_understood_is_noted_in_full_and_counted_each_time() -> None:
    d = press_game()
    tokens = (PRP, BRA, PCE, BRA, STANDARD.number("FRA"), STANDARD.number("PAR"), KET, KET)
    message = Frm("TUR", ("FRA",), fold(tokens, STANDARD))
    for times in (1, 2):
        (heard,) = noted(d.say(message), notes.PressIn)
        assert heard == notes.PressIn("TUR", message.to_text(STANDARD), "not understood: HUH/TRY")
        assert d.core.negotiator.counts["not_understood"] == times


def test_with_press_off_press_heard_is_noted_as_such() -> None:
    d = Driver(core=BotCore(CoreSettings(name="test", version="1", seed=7, press="off")))
    d.join(Variant.of(10, move_time_limit=10))
    d.show(opening())
    peace = Proposal(Peace(("FRA", "TUR")))
    (heard,) = noted(d.say(frm("TUR", peace)), notes.PressIn)
    assert heard == notes.PressIn("TUR", frm("TUR", peace).to_text(STANDARD), "press off")


def _nested(depth: int) -> Proposal:
    """A proposal ``depth`` forms deep (the caps' limit at 16): PRP, NOTs, PCE."""
    arrangement: Negation | Peace = Peace(("FRA", "TUR"))
    for _ in range(depth - 2):
        arrangement = Negation(arrangement)
    return Proposal(arrangement)


def test_a_reply_past_the_press_caps_is_not_sent_but_counted_and_noted() -> None:
    d = press_game()
    deepest = _nested(16)  # readable; our REJ of it would be 17 deep
    with pytest.raises(EncodeError) as refused:
        Reject(deepest).to_tokens(STANDARD)
    for times in (1, 2):
        out = d.say(frm("TUR", deepest))
        assert sent(out, Snd) == []
        assert noted(out, notes.HandlerError) == [
            notes.HandlerError(repr(refused.value), repr(Reject(deepest)), "SND")
        ]
        assert d.core.negotiator.counts["unsendable"] == times
