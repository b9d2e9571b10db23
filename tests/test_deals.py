"""Numbered deals: deal N is the same cards forever, made by the documented SplitMix64 procedure."""

from __future__ import annotations

import pytest
from spiderette_testkit import VARIANT_SUITS, VS_IDS

from spiderette import Game
from spiderette.engine.cards import rank_of
from spiderette.engine.deals import SplitMix64, shuffled_deck
from spiderette.engine.variants import RULES

# Pinned forever: if one of these changes, every saved deal number means other cards.
PINNED = {
    ("spiderette", 4, 0): "spiderette:4 8C/jdTS/9s3h8S/2casqc3D/2hjskd5s4C/qh7s5dadth8D/6c9d2s6s5h8hAH"
                          " QDTCQSJH3C4H2D9H3SKHAC7C9C7HJC6DKC4S7D5C6H4DKSTD - 0 500 0",
    ("spiderette", 4, 1): "spiderette:4 7H/9s6H/4h9c2H/8djsjd2S/8h5h5dahKD/5ckh7d6ctdJC/jh3s4dkstcth8C"
                          " QS4C6S7SAC5SADKC6DQCQDQH9H3H3CAS4S2D8STS3D2C9D7C - 0 500 1",
    ("spiderette", 4, 7): "spiderette:4 4H/5s6H/jd4cJC/3c7dts7C/4d9h2d2c3S/td2s7stcqd8H/kckh4s9c2h6cAS"
                          " 9SJH6D3H3D8DADKD6SAC7H5D9D5CQCAHKSTH8SJS5H8CQHQS - 0 500 7",
    ("spiderette", 4, 123456789): "spiderette:4 KS/jsJD/4d7hJC/qs3s5hAH/6htd3cts5D/7ckd2h9dad9S/ac8s9h7d4s4cJH"
                                  " 5S9C7S3DQC6D3HAS6SQD8H8DQH6C4H2D8C2CKC5CTHKHTC2S - 0 500 123456789",
    ("spiderette", 4, 2**64 - 1): "spiderette:4 JS/kc2D/7cadAC/4s7h4c9D/ah6h7dqd5C/jd6c3h8h9c8C/5h4h2h3casqhTH"
                                  " 7SQC9S4DJHKDKS6D9H8D8STD6SKH2C3DQSJC3S5DTC2STS5S - 0 500 18446744073709551615",
    ("spiderette", 1, 0): "spiderette:1 8S/jsTS/9s3s8S/2sasqs3S/2sjsks5s4S/qs7s5sasts8S/6s9s2s6s5s8sAS"
                          " QSTSQSJS3S4S2S9S3SKSAS7S9S7SJS6SKS4S7S5S6S4SKSTS - 0 500 0",
    ("red_black_spiderette", 4, 0): "red_black_spiderette:4 8C/jdTS/9s3h8S/2casqc3D/2hjskd5s4C/qh7s5dadth8D"
                                    "/6c9d2s6s5h8hAH QDTCQSJH3C4H2D9H3SKHAC7C9C7HJC6DKC4S7D5C6H4DKSTD - 0 500 0",
    ("will_o_the_wisp", 4, 7): "will_o_the_wisp:4 4h6hTS/5s4c2D/jd7d7S/3c9h4S/4d2s7C/tdkh2C/kcjcTC"
                               " 9C3SQD2H8H6CAS9SJH6D3H3D8DADKD6SAC7H5D9D5CQCAHKSTH8SJS5H8CQHQS - 0 500 7",
    ("spider", 4, 0): "spider:4 3hth3das2s5D/8c6sqd9s6c3H/jsad5dkc3s6D/6skcjckdksQD/4hjdqs4cAS/2dkhth7dQC"
                      "/ts5h8s5sJH/7h9h3d9d8D/ad5cjd6h4S/8h9s2s2h9D 5S6H8SAH7S7H8H6DTC4C8CQS2H7D2C2D9HQC5HKH3C4D"
                      "7S4HJC3C7C3STSJHAC2CJSKDQH9C4D6C4SAH7CTDAC8DTC9CKS5CQHTD - 0 500 0",
    ("spider", 2, 7): "spider:2 9sqh5sjsjh9S/2h9h4sjh5s3S/as7s6h7h3sQH/kh3hqs9hks2H/4h6h3h5hAH/kh2sksjs9S"
                      "/8h3hqh6s2S/4h4s5hjh5S/th9sjstsAS/8h7sts5h5S JSAHTSAHKH4HQH7S6S8STH4S6HKS3H9H8H6S8S2H5H7H"
                      "8S8H7HQS2SQSTS2S4S9HASJH3SAS7HTHKH6S8SAH6H3S7STH4HKS2HQS - 0 500 7",
}


@pytest.mark.parametrize("key", list(PINNED), ids=[f"{v}-{s}-{n}" for v, s, n in PINNED])
def test_numbered_deals_never_change(key):
    variant, suits, seed = key
    assert Game(variant, seed=seed, suits=suits).position() == PINNED[key]
    assert Game.from_position(PINNED[key]).to_dict() == Game(variant, seed=seed, suits=suits).to_dict()


def test_first_deal_order_of_deal_zero():
    assert " ".join(
        "A23456789TJQK"[rank_of(c) - 1] + "SHCD"[c >> 4] for c in shuffled_deck(0)
    ) == ("8C JD 9S 2C 2H QH 6C TS 3H AS JS 7S 9D 8S QC KD 5D 2S 3D 5S AD 6S 4C TH 5H 8D 8H AH QD TC QS JH 3C 4H"
          " 2D 9H 3S KH AC 7C 9C 7H JC 6D KC 4S 7D 5C 6H 4D KS TD")


# Published SplitMix64 reference outputs (Vigna's splitmix64.c; Rosetta Code "Pseudo-random numbers/Splitmix64").
REFERENCE = {
    0: [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC, 0x1B39896A51A8749B],
    1234567: [6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
              16408922859458223821],
}


@pytest.mark.parametrize("seed", list(REFERENCE))
def test_splitmix64_matches_the_reference(seed):
    rng = SplitMix64(seed)
    assert [rng.next() for _ in range(5)] == REFERENCE[seed]


def _reference_deal(variant: str, seed: int, suits: int) -> str:
    """Deal ``seed`` made from the procedure documented in ``spiderette.engine.deals``, written independently."""
    rules = RULES[variant]
    state = seed

    def nxt():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return z ^ (z >> 31)

    order = "SHDC"[:suits]
    deck = [r + s for _ in range(rules.decks * 4 // suits) for s in order for r in "A23456789TJQK"]
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        while True:
            x = nxt()
            if x < 2**64 - 2**64 % bound:
                break
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    cols = [[] for _ in rules.layout]
    row_by_row = [c for row in range(max(rules.layout)) for c, h in enumerate(rules.layout) if row < h]
    for pos, c in enumerate(rules.deal_order or row_by_row):   # (a variant's own order, else row by row)
        cols[c].append(deck[pos])
    pos = sum(rules.layout)
    up = rules.face_up   # (the top cards face up, upper case)
    text = "/".join("".join(x.lower() for x in col[:-up]) + "".join(col[-up:]) for col in cols)
    return f"{variant}:{suits} {text} {''.join(deck[pos:]) or '-'} - 0 500 {seed}"


@pytest.mark.parametrize("seed", [0, 1, 2, 42, 2**32 + 5, 2**63, 2**64 - 1])
@pytest.mark.parametrize("variant,suits", VARIANT_SUITS, ids=VS_IDS)
def test_deals_follow_the_documented_procedure(variant, suits, seed):
    assert Game(variant, seed=seed, suits=suits).position() == _reference_deal(variant, seed, suits)


def test_same_number_same_deal_other_number_other_deal():
    assert Game(seed=99).to_dict() == Game(seed=99).to_dict()
    assert len({Game(seed=s).position().split()[1] for s in range(50)}) == 50
    assert Game(seed=5, suits=2).to_dict() != Game(seed=5).to_dict()
    # a random game says which deal it is, and that number replays it
    g = Game()
    assert Game(seed=g.seed).position() == g.position()


def test_shuffle_is_a_permutation_and_unbiased_enough():
    from collections import Counter

    from spiderette.engine.cards import make_deck

    first = Counter()
    for seed in range(2000):
        deck = shuffled_deck(seed)
        assert sorted(deck) == sorted(make_deck())
        first[deck[0]] += 1
    # each of the 52 cards should lead about 2000 / 52 = 38 times
    assert len(first) == 52 and max(first.values()) < 80 and min(first.values()) > 10


def _seed_whose_first_output_is(out: int) -> int:
    """Invert SplitMix64's output function (each step is a bijection on 64-bit words)."""
    m = 2**64

    def unshift(y: int, s: int) -> int:
        x = y
        for _ in range(64 // s + 1):
            x = y ^ (x >> s)
        return x

    z = unshift(out, 31)
    z = z * pow(0x94D049BB133111EB, -1, m) % m
    z = unshift(z, 27)
    z = z * pow(0xBF58476D1CE4E5B9, -1, m) % m
    z = unshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) % m


def test_draws_reject_the_biased_top_of_the_range():
    # with bound 3, 2**64 - 1 is the one value that would bias the draw: it must be skipped
    seed = _seed_whose_first_output_is(2**64 - 1)
    rng = SplitMix64(seed)
    assert rng.next() == 2**64 - 1
    second = rng.next()
    assert SplitMix64(seed).below(3) == second % 3
    # and a value below the limit is taken as it is
    seed = _seed_whose_first_output_is(2**64 - 2)
    assert SplitMix64(seed).below(3) == (2**64 - 2) % 3
