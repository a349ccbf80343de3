"""Each stage of the offline receipt extractor on its own: normalise, amounts, labels, dates, locate, totals,
merchant and address, items; and the engine registry."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from insightshop.services.errors import Invalid
from insightshop.services.receipts.document import ReceiptDocument, ReceiptExtraction
from insightshop.services.receipts.extraction import available_engines, extract, register_engine
from insightshop.services.receipts.extraction.amounts import find_amounts, parse_number
from insightshop.services.receipts.extraction.dates import choose_purchase_date, find_dates
from insightshop.services.receipts.extraction.labels import LEXICON, find_labels
from insightshop.services.receipts.extraction.locate import locate
from insightshop.services.receipts.extraction.merchant import find_address, find_merchant
from insightshop.services.receipts.extraction.normalise import normalise, normalise_line
from insightshop.services.receipts.extraction.totals import money_fields

TODAY = dt.date(2026, 11, 24)


def line(text: str):
    return normalise_line(0, text, LEXICON)


def located(*texts: str):
    return locate(normalise(ReceiptDocument.from_lines(list(texts)), LEXICON))


def run(*texts: str, today: dt.date = TODAY) -> ReceiptExtraction:
    return extract(ReceiptDocument.from_lines(list(texts)), today=today)


# normalise -------------------------------------------------------------------------------------------------------


def test_every_form_keeps_the_line_length_so_spans_point_at_the_printed_characters():
    text = "Straße T0TAL 9.O0 Rückgeld"
    normal = line(text)
    assert len(normal.upper) == len(normal.key) == len(normal.num) == len(text)


@pytest.mark.parametrize("printed, word", [("T0TAL", "TOTAL"), ("5UBTOTAL", "SUBTOTAL"), ("CHANGES", "CHANGE")])
def test_ocr_confusions_inside_label_words_are_undone(printed, word):
    assert [w.text for w in line(f"{printed}: 9.00").words][0] == word


def test_a_word_one_letter_away_is_corrected_only_when_its_first_letter_agrees():
    assert [w.text for w in line("GROUND FLOOR").words][0] == "GROUND"


@pytest.mark.parametrize(
    "printed, digits",
    [("9.O0", "9.00"), ("1O.50", "10.50"), ("1S.00", "15.00"), ("TOTAL 63.3S", "TOTAL 63.35"), ("RMI.38", "RM1.38")],
)
def test_letters_inside_numbers_read_as_digits(printed, digits):
    assert line(printed).num == digits


@pytest.mark.parametrize("text", ["NO.53 JALAN", "SOLD OUT", "1.5L MILK", "BOX 12", "5.40S"])
def test_letters_next_to_letters_stay_letters(text):
    assert line(text).num == text.upper()


# amounts ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "printed, style, value",
    [("1,234.56", ".", "1234.56"), ("1.234,56", ",", "1234.56"), ("12,50", ",", "12.50"), ("9.000", ".", "9.000"),
     ("1,234", ".", "1234"), ("1'234.50", ".", "1234.50"), (".90", ".", "0.90")],
)  # fmt: skip
def test_numbers_are_read_with_the_receipts_decimal_separator(printed, style, value):
    assert parse_number(printed, style)[0] == Decimal(value)


def test_a_comma_list_is_not_an_amount_in_a_receipt_whose_decimals_are_dots():
    assert parse_number("55,57", ".") is None


@pytest.mark.parametrize(
    "text, value, marker",
    [("TOTAL RM9.00", "9.00", "RM"), ("TOTAL: $ 12.50", "12.50", "$"), ("SUMME 7,21 EUR", "7.21", "EUR"),
     ("ROUNDING -0.02", "-0.02", None), ("DISC 2.07-", "-2.07", None), ("TOTAL €1.234,50", "1234.50", "€")],
)  # fmt: skip
def test_amounts_carry_their_sign_and_the_currency_printed_beside_them(text, value, marker):
    style = "," if "," in text and "." not in text.replace("1.234", "") else "."
    amounts = [a for a in find_amounts(line(text), style) if a.decimals]
    assert (amounts[-1].value, amounts[-1].marker) == (Decimal(value), marker)


@pytest.mark.parametrize("text", ["25/12/2018", "12:30:45", "GST 6%", "OPEN 7.30AM-6.00PM", "TEL 03-7845 8155"])
def test_dates_times_percentages_and_phone_numbers_are_not_money(text):
    assert not [a for a in find_amounts(line(text), ".") if a.money]


def test_money_glued_to_its_label_is_read_but_codes_glued_to_words_are_not():
    assert [str(a.value) for a in find_amounts(line("TOTAL9.00"), ".") if a.money] == ["9.00"]
    assert not [a for a in find_amounts(line("LOT PT15944 NO.53"), ".") if a.money]


def test_an_amount_span_is_the_number_as_printed():
    text = "TOTAL (RM):   1,234.50"
    amount = find_amounts(line(text), ".")[-1]
    assert text[amount.start : amount.end] == "1,234.50"


# labels ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, kind",
    [("TOTAL GST : 1.65", "tax"), ("TOTAL INCL. GST@6% 37.10", "total_final"), ("SUB-TOTAL 9.00", "subtotal"),
     ("TOTAL SALES (EXCLUDING GST) : 31.03", "subtotal"), ("GRAND TOTAL 9.00", "total_final"),
     ("ROUNDED TOTAL 9.05", "total_final"), ("CHANGE DUE 1.00", "change"), ("Rückgeld EUR 2,79", "change"),
     ("Geg. Bar 10,00", "cash"), ("T0TAL: 9.00", "total")],
)  # fmt: skip
def test_the_longest_label_phrase_says_what_an_amount_is(text, kind):
    assert located(text).labelled[-1].kind == kind


@pytest.mark.parametrize(
    "text, kind", [("TAX INVOICE", "other"), ("TOTAL QTY: 3", "count"), ("GST SUMMARY", "summary")]
)
def test_words_that_look_like_labels_but_are_not_amount_labels(text, kind):
    assert [label.kind for label in find_labels(line(text))] == [kind]


def test_a_label_on_its_own_line_labels_the_amount_on_the_next_line():
    result = located("TOTAL (RM):", "9.00")
    assert [(item.kind, str(item.amount.value)) for item in result.labelled] == [("total_final", "9.00")]


def test_a_tax_word_after_a_total_qualifies_the_total():
    result = located("GRAND TOTAL (SST)", "38.37")
    assert result.labelled[0].kind == "total_final"


def test_column_headings_do_not_label_the_first_item():
    result = located("ITEM QTY PRICE AMOUNT", "2.90")
    assert result.labelled[0].kind is None


def test_a_rounding_amount_of_a_unit_or_more_is_the_rounded_total():
    result = located("ROUNDING RM", "45.35")
    assert result.labelled[0].kind == "total_final"


# dates -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, date",
    [("25/12/2018", "2018-12-25"), ("2018-12-25", "2018-12-25"), ("25-DEC-2018", "2018-12-25"),
     ("Dec 25, 2018", "2018-12-25"), ("25 December 2018", "2018-12-25"), ("25.12.18", "2018-12-25"),
     ("DATE: 20181225", "2018-12-25"), ("24 MAR 18 18:23", "2018-03-24"), ("12 MEI 2018", "2018-05-12")],
)  # fmt: skip
def test_dates_in_many_printed_forms(text, date):
    hits = find_dates(line(text))
    assert str(hits[0].day_first) == date


@pytest.mark.parametrize(
    "text, date", [("DATE: 06/02/201B", "2018-02-06"), ("2S MAY 2017 09:41AM", "2017-05-25"),
                   ("06/02/1818:47", "2018-02-06"), ("18/04/20185:18:08 PM", "2018-04-18")],
)  # fmt: skip
def test_dates_damaged_by_ocr(text, date):
    assert str(find_dates(line(text))[0].day_first) == date


def choose(*texts: str, month_first: bool | None = None, today: dt.date = TODAY) -> str | None:
    result = located(*texts)
    chosen = choose_purchase_date(result.lines, list(result.dates), month_first, today)
    return chosen.value.isoformat() if chosen else None


def test_an_ambiguous_numeric_date_is_day_first_unless_the_receipt_says_month_first():
    assert choose("03/04/2019") == "2019-04-03"
    assert choose("03/04/2019", month_first=True) == "2019-03-04"


def test_the_receipts_own_unambiguous_dates_decide_the_order():
    assert choose("PRINTED 12/13/2016", "DATE: 03/04/2016", month_first=False) == "2016-03-04"


def test_an_impossible_reading_falls_back_to_the_other_order():
    assert choose("12/13/2016") == "2016-12-13"


def test_a_date_in_the_future_is_never_chosen():
    assert choose("05/12/2026", today=dt.date(2026, 6, 1)) == "2026-05-12"
    assert choose("25/12/2026", today=dt.date(2026, 6, 1)) is None


def test_a_labelled_date_beats_an_expiry_date():
    assert choose("VALID UNTIL 01/01/2019", "DATE: 02/03/2018") == "2018-03-02"


# totals and currency ---------------------------------------------------------------------------------------------


def money(*texts: str):
    return money_fields(located(*texts))


def test_the_total_is_the_labelled_amount_that_cash_minus_change_confirms():
    fields = money("TOTAL 12.30", "TOTAL 0% SUPPLIES 3.00", "CASH 20.00", "CHANGE 7.70")
    assert fields.total.item.amount.value == Decimal("12.30")
    assert fields.total.confidence >= 0.9


def test_a_subtotal_above_the_total_counts_when_a_discount_explains_it():
    fields = money("Subtotal $172.50", "Sale discount −$30.00", "Shipping Free", "Tax $11.40", "Total (USD) $153.90")
    assert fields.subtotal.item.amount.value == Decimal("172.50")
    assert fields.total.item.amount.value == Decimal("153.90") and fields.total.confidence > 0.85  # it adds up
    assert money("SUBTOTAL 172.50", "TOTAL 153.90").subtotal is None  # nothing explains a larger subtotal


def test_the_total_after_a_rounding_line_wins():
    fields = money("TOTAL AMT 60.31", "ROUNDING ADJ -0.01", "TOTAL 60.30")
    assert fields.total.item.amount.value == Decimal("60.30")


def test_totals_in_the_tax_summary_are_not_the_receipts_total():
    fields = money("SUBTOTAL 25.00", "TOTAL 25.00", "GST SUMMARY", "TOTAL 23.58 1.42")
    assert fields.total.item.amount.value == Decimal("25.00")


def test_without_labels_the_largest_amount_above_the_payment_is_taken_with_low_confidence():
    fields = money("ITEM A 3.00", "ITEM B 7.50")
    assert fields.total.item.amount.value == Decimal("7.50")
    assert fields.total.confidence < 0.7


def test_tax_prefers_the_tax_amount_over_the_base_on_the_same_line():
    assert money("S:GST(6%) 17.83 1.07", "TOTAL 18.90").tax.item.amount.value == Decimal("1.07")


def test_the_currency_comes_from_the_totals_line():
    currency = money("ITEM 2.00", "TOTAL (RM): 9.00").currency
    assert (currency.code, currency.confidence) == ("MYR", 0.95)


def test_a_dollar_sign_is_read_by_the_country():
    assert money("SINGAPORE 018956", "TOTAL $9.00").currency.code == "SGD"
    assert money("AUSTIN, TX 78701", "TOTAL $9.00").currency.code == "USD"


def test_without_any_marker_the_country_gives_the_currency_without_evidence():
    currency = money("KEDAI ABC SDN BHD", "JALAN BESAR, 43000 KAJANG", "TOTAL 15.00").currency
    assert (currency.code, currency.spans) == ("MYR", ())
    assert currency.confidence < 0.7


def test_no_marker_and_no_country_means_no_currency():
    assert money("SHOP", "TOTAL 15.00").currency is None


# merchant and address --------------------------------------------------------------------------------------------


def merchant(*texts: str) -> str | None:
    found = find_merchant(located(*texts))
    return found.value if found else None


def test_the_line_with_a_legal_form_is_the_merchant_not_the_persons_name_above_it():
    assert merchant("TAN WOON YANN", "MR D.I.Y. (JOHOR) SDN BHD", "(CO.REG : 933109-X)", "LOT 1851-A, JALAN KPB 6") == (
        "MR D.I.Y. (JOHOR) SDN BHD"
    )


def test_without_a_legal_form_the_first_name_line_is_the_merchant_not_its_branch_or_manager():
    assert merchant("TARGET", "Carmel Mountain Ranch", "11665 Carmel Mountain Rd", "San Diego, CA 92128") == "TARGET"
    assert merchant("Walmart", "( 479 ) 273 - 4134", "MANAGER DIANA EARNEST", "1515 N WALTON BLVD") == "Walmart"


def test_registration_numbers_and_owner_prefixes_are_not_part_of_the_name():
    assert merchant("99 SPEED MART S/B (519537-X)", "LOT P.T. 2811") == "99 SPEED MART S/B"
    assert merchant("DIMILIKI: BANH MI CAFE SDN BHD 1110644-W") == "BANH MI CAFE SDN BHD"


@pytest.mark.parametrize(
    "lines, name",
    [(("POPULAR BOOK", "CO. (M) SDN BHD", "(CO. NO. 113825-W)"), "POPULAR BOOK CO. (M) SDN BHD"),
     (("AIK HUAT HARDWARE", "ENTERPRISE (SETIA", "ALAM) SDN BHD"), "AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD"),
     (("SUBANG HEALTHCARE SDN", "BHD", "1118258-K"), "SUBANG HEALTHCARE SDN BHD")],
)  # fmt: skip
def test_a_name_broken_over_lines_is_joined(lines, name):
    assert merchant(*lines) == name


def test_a_legal_form_line_with_a_name_of_its_own_is_not_joined_to_the_brand_above():
    assert merchant("SARANG HAE YO", "TRENDYMAX (M) SDN. BHD.", "COMPANY REG. NO. : (583246-A).") == (
        "TRENDYMAX (M) SDN. BHD."
    )


def test_a_shop_word_makes_a_name_without_a_legal_form_beat_the_persons_name_above_it():
    assert merchant("TAN WOON YANN", "INDAH GIFT & HOME DECO", "27,JALAN DEDAP 13,", "81100 JOHOR BAHRU") == (
        "INDAH GIFT & HOME DECO"
    )


def test_a_document_title_after_the_name_is_not_part_of_it():
    assert merchant("InsightShop Receipt", "Everyday clothing") == "InsightShop"
    assert merchant("ACME TRADING TAX INVOICE", "NO 1 JALAN BESAR") == "ACME TRADING"
    assert merchant("RECEIPT", "CORNER MARKET") == "CORNER MARKET"


def test_a_legal_form_or_long_business_word_one_letter_off_is_spelt_right_in_the_name():
    assert (
        merchant("KEDAI MAJU ENTERPRlSE", "NO 3, JALAN MAJU") == "KEDAI MAJU ENTERPRlSE"
    )  # not upper-case: as printed
    assert merchant("LIM BROTHERS ENTERPRTSE", "NO 3, JALAN MAJU") == "LIM BROTHERS ENTERPRISE"
    assert merchant("SRI INDAH HARDWAAE SDN BND", "(123456-K)") == "SRI INDAH HARDWARE SDN BHD"
    assert merchant("SRI INDAH HARDWARE SDNBHD", "(123456-K)") == "SRI INDAH HARDWARE SDN BHD"
    assert merchant("SRI INDAH HARDWARE SDN.BHD", "(123456-K)") == "SRI INDAH HARDWARE SDN.BHD"  # printed so
    assert merchant("ANJUNG RESTAURENT SDN BHD") == "ANJUNG RESTAURANT SDN BHD"
    # a real word next to a business word, a short word, or a different first or last letter stays as printed
    assert merchant("CITY STATIONERS SDN BHD") == "CITY STATIONERS SDN BHD"
    assert merchant("MEGA ENTERPRISES SDN BHD") == "MEGA ENTERPRISES SDN BHD"
    assert merchant("BESTARI MART SDN BHD") == "BESTARI MART SDN BHD"


def test_digits_read_inside_the_words_of_a_name_are_the_letters_they_resemble():
    assert merchant("KEDAI R0TI 5ENANG 5DN 8HD", "(123456-K)") == "KEDAI ROTI SENANG SDN BHD"
    assert (
        merchant("TEH TARIK HOUSE SDN 8HD (123456-K)", "NO 3, JALAN MAJU") == "TEH TARIK HOUSE SDN BHD"
    )  # not cut at SDN
    assert merchant("Kopi K1ng Cafe", "NO 3, JALAN MAJU") == "Kopi KIng Cafe"  # case as printed
    # numbers and codes of their own stay: a number word, or as many digits as letters
    assert merchant("88 JAYA MART S/B", "(123456-K)") == "88 JAYA MART S/B"
    assert merchant("KT21 - TEH 88 SHELL", "MAJU ENTERPRISE") == "MAJU ENTERPRISE"
    assert merchant("U2 BAKERY SDN BHD") == "U2 BAKERY SDN BHD"


def test_a_web_address_is_not_the_merchant():
    assert merchant("INSIGHTSHOP", "Everyday clothing", "shop.insightshop.example") == "INSIGHTSHOP"


def test_a_document_title_alone_is_not_the_merchant():
    assert merchant("TAX INVOICE", "KEDAI MAJU", "NO 1 JALAN BESAR") == "KEDAI MAJU"
    assert merchant("SIMPLIFIED TAX INVOICE", "KEDAI MAJU", "NO 1 JALAN BESAR") == "KEDAI MAJU"


def test_a_name_with_its_registration_number_beside_or_below_it_is_the_registered_business():
    header = ("TAX INVOICE", "BHPETROL PERMAS JAYA 2", "LOT PTD 101051", "JALAN PERMAS 10/10", "81750 MASAI, JOHOR")
    assert merchant(*header, "ESJAY FUEL ENTERPRISE", "CO. REG. NO: 001011128-T") == "ESJAY FUEL ENTERPRISE"
    assert merchant(*header, "ESJAY FUEL ENTERPRISE", "THANK YOU") == "BHPETROL PERMAS JAYA 2"
    assert merchant("FACE TO FACE NOODLE HOUSE", "FTOF NOODLE HOUSE", "(002049088-U)") == "FTOF NOODLE HOUSE"
    # a place word does not make a registered name an address line
    assert merchant("BEST DENKI MALAYSIA (308282-A)", "LOT LG 26, SUBANG PARADE", "BEST DENKI 1 UTAMA") == (
        "BEST DENKI MALAYSIA"
    )


def test_a_line_in_brackets_under_the_name_is_not_part_of_it():
    assert merchant("TONYMOLY VIVA CITY", "(TONYMOLY SHOP (95874))", "UNIT L1-044B, VIVACITY MEGAMALL,") == (
        "TONYMOLY VIVA CITY"
    )


def test_a_registered_name_below_the_amounts_is_found_when_the_footer_is_printed_first():
    assert merchant("4.00", "THANK YOU AND DO VISIT US AGAIN", "FIVE STAR CASH & CARRY", "(1365663-P)") == (
        "FIVE STAR CASH & CARRY"
    )


def address(*texts: str) -> str | None:
    result = located(*texts)
    found = find_address(result, find_merchant(result))
    return found.value if found else None


def test_the_address_runs_to_the_postcode_and_state_and_stops_at_contact_details():
    assert (
        address(
            "ABC HO TRADING",
            "NO.2&4,JALAN HARMONI 3/2,",
            "TAMAN DESA HARMONI.",
            "81100 JOHOR BAHRU",
            "JOHOR",
            "TEL: 07-3552616",
        )
        == "NO.2&4,JALAN HARMONI 3/2, TAMAN DESA HARMONI. 81100 JOHOR BAHRU JOHOR"
    )


def test_the_address_skips_registration_numbers_and_ends_before_a_phone_on_the_same_line():
    assert address(
        "YONGFATT ENTERPRISE", "(JM0517726)", "NO 122 JALAN DEDAP 13", "81100 JOHOR BAHRU TEL 07-3523888"
    ) == ("NO 122 JALAN DEDAP 13 81100 JOHOR BAHRU")


def test_a_five_digit_house_number_is_not_taken_for_the_postcode():
    assert address("TARGET", "11665 Carmel Mountain Rd", "San Diego, CA 92128", "858-675-6014") == (
        "11665 Carmel Mountain Rd San Diego, CA 92128"
    )


def test_us_and_german_addresses():
    assert address("WHOLE FOODS MARKET", "1765 California St", "San Francisco, CA 94109", "(415) 674-0500") == (
        "1765 California St San Francisco, CA 94109"
    )
    assert (
        address("REWE Markt GmbH", "Hauptstraße 12", "10115 Berlin", "Tel.: 030 1234567")
        == "Hauptstraße 12 10115 Berlin"
    )


def test_a_lot_number_is_not_taken_for_the_postcode():
    assert address(
        "SPEED MART S/B (519537-X)", "LOT P.T. 33198, BATU 4", "JALAN KAPAR, MUKIM KAPAR", "42100 KLANG, SELANGOR"
    ) == ("LOT P.T. 33198, BATU 4 JALAN KAPAR, MUKIM KAPAR 42100 KLANG, SELANGOR")
    assert address("SHELL STATION", "LOT 26151 BANDAR SG LONG,", "43000 KAJANG, SELANGOR") == (
        "LOT 26151 BANDAR SG LONG, 43000 KAJANG, SELANGOR"
    )


def test_a_branch_line_right_above_the_tax_number_closes_the_address():
    lines = ("MART S/B (519537-X)", "LOT P.T. 2811, JALAN ANGSA,", "41150 KLANG, SELANGOR", "1558-TMN PUSAT KEPONG")
    assert address(*lines, "GST ID. NO : 000181747712") == (
        "LOT P.T. 2811, JALAN ANGSA, 41150 KLANG, SELANGOR 1558-TMN PUSAT KEPONG"
    )
    # not when something other than contact details, tax numbers or a title follows, nor another business's name
    assert address(*lines, "08:53PM", "GST ID. NO : 000181747712").endswith("41150 KLANG, SELANGOR")
    assert address(*lines[:3], "ESJAY FUEL ENTERPRISE", "TAX INVOICE").endswith("41150 KLANG, SELANGOR")
    assert address(*lines[:3], "TAXINVOICE", "TEL 03-1234567").endswith("41150 KLANG, SELANGOR")


def test_a_postcode_line_ending_in_a_comma_goes_on_with_the_town():
    assert address("KEDAI", "NO.17, JALAN BESAR,", "39100 BRINCHANG,", "CAMERON HIGHLANDS, PAHANG", "TEL: 05-4912") == (
        "NO.17, JALAN BESAR, 39100 BRINCHANG, CAMERON HIGHLANDS, PAHANG"
    )


def test_a_bare_mall_name_or_a_label_after_the_state_does_not_close_the_address():
    lines = ("POPULAR BOOK CO. (M) SDN BHD", "NO 8, JALAN 7/118B, DESA TUN RAZAK", "56000 KUALA LUMPUR, MALAYSIA")
    assert address(*lines, "SUNWAY VELOCITY", "TEL : 03-9201 6281") == (
        "NO 8, JALAN 7/118B, DESA TUN RAZAK 56000 KUALA LUMPUR, MALAYSIA"
    )
    assert address(*lines, "(MR DIY TESCO TERBAU)", "-INVOICE-").endswith("MALAYSIA (MR DIY TESCO TERBAU)")
    assert address(
        "BHPETROL", "LOT PTD 101051", "JALAN PERMAS 10/10", "81750 MASAI, JOHOR", "PREPAY CHIT NUMBER", "57381"
    ) == ("LOT PTD 101051 JALAN PERMAS 10/10 81750 MASAI, JOHOR")


def test_a_greeting_or_a_bracketed_branch_does_not_start_the_address():
    assert address(
        "TQ FOR SHOPPING WITH MYNEWS.COM", "UNIT 105, BLOCK A,", "NO.9, JALAN 16/11, 46350 PETALING JAYA"
    ) == ("UNIT 105, BLOCK A, NO.9, JALAN 16/11, 46350 PETALING JAYA")
    assert address(
        "CHECKERS HYPERMARKET SDN BHD", "(JALAN KLANG LAMA)", "LOT 2942, JLN SERI SENTOSA 8,", "58000 KUALA LUMPUR."
    ) == ("LOT 2942, JLN SERI SENTOSA 8, 58000 KUALA LUMPUR.")


def test_lines_ending_in_a_comma_above_the_street_line_start_the_address():
    assert address(
        "BERRY'S CAKE HOUSE", "(CO NO. 315481-T)", "NO.1,", "JLN PUTERI 1/6,", "47100 PUCHONG,", "SELANGOR"
    ) == ("NO.1, JLN PUTERI 1/6, 47100 PUCHONG, SELANGOR")
    assert address(
        "SANJUNG REALITI SDN. BHD.", "CAR PARK OFFICE, BASEMENT 1,", "LABUHRAYA SPRINT, PJU6A,", "47400 PETALING JAYA"
    ) == ("CAR PARK OFFICE, BASEMENT 1, LABUHRAYA SPRINT, PJU6A, 47400 PETALING JAYA")
    # but never a registration number or the merchant's own line
    assert address(
        "HERO SDN BHD", "(666770-U),", "4243,COMPLEKS SRI GAYA,", "JLN TMN SUBANG JASA 3,", "40150 SELANGOR"
    ) == ("4243,COMPLEKS SRI GAYA, JLN TMN SUBANG JASA 3, 40150 SELANGOR")


def test_a_name_with_its_legal_form_ending_in_a_comma_does_not_run_into_the_address():
    lines = ("URBAN IDEA SDN BHD (417940-M),", "A-G-06, DATARAN GLOMAC,", "JALAN SS6/5A,", "47301 PETALING JAYA")
    assert merchant(*lines) == "URBAN IDEA SDN BHD"
    assert address(*lines) == "A-G-06, DATARAN GLOMAC, JALAN SS6/5A, 47301 PETALING JAYA"


def test_an_address_label_is_not_part_of_the_address():
    assert address("HAI-O RAYA BHD", "HQ ADD: LOT 11995, BATU 2, JALAN KAPAR", "41400 KLANG, SELANGOR") == (
        "LOT 11995, BATU 2, JALAN KAPAR 41400 KLANG, SELANGOR"
    )


def test_a_header_printed_below_the_amounts_still_gives_the_address_under_the_merchant():
    assert address(
        "0.00", "THANK YOU", "CHECKERS HYPERMARKET SDN BHD", "LOT 2942, JLN SERI SENTOSA 8,", "58000 KUALA LUMPUR."
    ) == ("LOT 2942, JLN SERI SENTOSA 8, 58000 KUALA LUMPUR.")


def test_a_labelled_number_is_not_a_postcode_that_starts_the_address():
    assert address(
        "BHPETROL PERMAS JAYA 2",
        "LOT PTD 101051",
        "81750 MASAI, JOHOR",
        "ESJAY FUEL ENTERPRISE",
        "CO. REG. NO: 001011128-T",
        "PREPAY CHIT NUMBER: 12091",
    ) == ("LOT PTD 101051 81750 MASAI, JOHOR")


def test_an_address_does_not_start_with_its_postcode_when_a_street_line_is_above():
    assert address("RELAIS TOTAL OULMES", "AUTOROUTE RABAT MEKNES", "15000 KHEMISSET", "TEL. : 05.22.95.66.66") == (
        "AUTOROUTE RABAT MEKNES 15000 KHEMISSET"
    )
    assert address("KEDAI MAJU", "(1234567-X)", "47400 PETALING JAYA", "TEL: 03-1234567") == "47400 PETALING JAYA"
    assert address("ABC SDN BHD", "KEDAI MAKAN MAJU", "47400 PETALING JAYA", "TEL: 03-1234567") == "47400 PETALING JAYA"


def test_a_unit_number_like_a_16_1_starts_the_address():
    assert address(
        "GOLDEN SCOOP SDN BHD (169609-A)",
        "A-16-1, TOWER A, NORTHPOINT OFFICE, MID VALLEY",
        "CITY, NO1, MEDAN SYED PUTRA UTARA KUALA",
        "LUMPUR",
        "GST ID: 001513148416",
    ) == ("A-16-1, TOWER A, NORTHPOINT OFFICE, MID VALLEY CITY, NO1, MEDAN SYED PUTRA UTARA KUALA LUMPUR")


def test_after_a_line_ending_with_the_state_or_city_only_a_postcode_state_or_country_follows():
    assert address("BHPETROL", "LOT PTD 101051", "8175 MASAI, JOHOR", "PREPAY CHIT NUMBER", "57381") == (
        "LOT PTD 101051 8175 MASAI, JOHOR"
    )
    assert address("PERNIAGAAN RIANG RIA", "NO7,JLN UERO,SHAH ALAM.", '27" T.S BASIN BESAR', "400002") == (
        "NO7,JLN UERO,SHAH ALAM."
    )
    # a street named after a city, or a line ending in a comma, goes on
    assert address("KEDAI", "NO.54, BATU 5,JALAN IPOH,", "KG.BATU, 51200 KUALA LUMPUR", "TEL: 03-1234567") == (
        "NO.54, BATU 5,JALAN IPOH, KG.BATU, 51200 KUALA LUMPUR"
    )
    assert address("KEDAI", "NO 1, JALAN BESAR, SELANGOR", "43000 KAJANG", "TEL: 03-1234567") == (
        "NO 1, JALAN BESAR, SELANGOR 43000 KAJANG"
    )


def test_a_postcode_line_printed_under_a_contact_line_still_ends_the_address():
    lines = ("ASO ELECTRICAL TRADING SDN BHD", "NO 31G, JALAN SEPADU C 25/C.", "SECTION 25, TAMAN INDUSTRIES.")
    assert address(*lines, "TEL: 03-51221701", "AXIS 40400 SHAH ALAM, SELANGOR", "FAX: 03-51215716") == (
        "NO 31G, JALAN SEPADU C 25/C. SECTION 25, TAMAN INDUSTRIES. AXIS 40400 SHAH ALAM, SELANGOR"
    )
    # not when the address already has its postcode
    assert address("KEDAI", "NO 1, JALAN BESAR,", "43000 KAJANG", "TEL: 03-1234567", "43000 KAJANG") == (
        "NO 1, JALAN BESAR, 43000 KAJANG"
    )


def test_a_comma_or_full_stop_set_off_by_a_space_is_written_against_its_word():
    assert address(
        "KEDAI BESI SDN BHD", "LOT 12-A, JALAN KPX 9 ,", "TAMAN PERINDUSTRIAN MAJU ,", "43000 KAJANG , SELANGOR ."
    ) == ("LOT 12-A, JALAN KPX 9, TAMAN PERINDUSTRIAN MAJU, 43000 KAJANG , SELANGOR.")
    assert address("KEDAI BUKU", "NO . J-1-02, JALAN BESAR ,", "50480 KL") == "NO.J-1-02, JALAN BESAR, 50480 KL"
    # the evidence still points at the printed characters, spaces included
    result = located("KEDAI BESI SDN BHD", "LOT 12-A, JALAN KPX 9 ,", "43000 KAJANG")
    assert find_address(result, find_merchant(result)).spans == ((1, 0, 23), (2, 0, 12))


def test_digits_read_inside_the_words_of_an_address_are_the_letters_they_resemble():
    assert address("KEDAI MAJU SDN BHD", "NO 3, JALAN 5ETIA 1NDAH,", "8ANDAR PUCH0NG, 47100 SELANG0R") == (
        "NO 3, JALAN SETIA INDAH, BANDAR PUCHONG, 47100 SELANGOR"
    )
    # numbers at a word's end, ordinals and codes stay as printed
    assert address("KEDAI MAJU SDN BHD", "LOT G1, LEVEL UG1, 1ST FLR, NO1,", "JALAN SS21/5B, 47400 PJ") == (
        "LOT G1, LEVEL UG1, 1ST FLR, NO1, JALAN SS21/5B, 47400 PJ"
    )


def test_letters_read_inside_the_numbers_of_an_address_are_the_digits_they_resemble():
    assert address("KEDAI MAJU SDN BHD", "NO 1O2, JALAN MAJU 3,", "43O00 KAJANG, SELANGOR") == (
        "NO 102, JALAN MAJU 3, 43000 KAJANG, SELANGOR"
    )
    # unit codes with as many letters as digits, and words, stay as printed
    assert address("KEDAI MAJU SDN BHD", "LOT 1C, JALAN SS6/5A,", "47400 PJ") == "LOT 1C, JALAN SS6/5A, 47400 PJ"


def test_a_street_word_run_into_the_next_word_is_written_apart():
    assert address("KEDAI MAJU SDN BHD", "8, JALAN MERAH, OFF JALANBESAR,", "TMNSERI, 43000 KAJANG") == (
        "8, JALAN MERAH, OFF JALAN BESAR, TMN SERI, 43000 KAJANG"
    )
    # words that only begin like a street word stay whole
    assert address("KEDAI MAJU SDN BHD", "8, LEBUHRAYA TIMUR, BANDARAYA", "43000 KAJANG") == (
        "8, LEBUHRAYA TIMUR, BANDARAYA 43000 KAJANG"
    )


def test_a_doubled_hyphen_in_a_unit_number_is_one():
    assert address("KEDAI MAJU SDN BHD", "B--3-12, MENARA UTAMA,", "50480 KUALA LUMPUR") == (
        "B-3-12, MENARA UTAMA, 50480 KUALA LUMPUR"
    )


def test_a_branch_name_above_the_numbered_street_line_is_not_the_address():
    assert address(
        "NOODLE HOUSE SDN BHD (123456-A)", "NOODLE HOUSE PLAZA MAWAR", "NO.12-1, PLAZA MAWAR INDAH 3,",
        "JALAN 2/3, TAMAN MAWAR,", "56000 KUALA LUMPUR.", "GST ID: 000123456789",
    ) == "NO.12-1, PLAZA MAWAR INDAH 3, JALAN 2/3, TAMAN MAWAR, 56000 KUALA LUMPUR."  # fmt: skip
    assert address(
        "HEALTH PHARMACY SDN BHD", "TAMAN SRI MUDA", "NO 7 JALAN SRI MUDA 2", "TAMAN SRI MUDA", "TEL:03-1234567"
    ) == ("NO 7 JALAN SRI MUDA 2 TAMAN SRI MUDA")
    # a street line above the house number, or a name not repeated below, stays
    assert address("KEDAI", "JALAN LOKE YEW BENTONG", "90 GROUND FLOOR", "JALAN BENTONG") == (
        "JALAN LOKE YEW BENTONG 90 GROUND FLOOR JALAN BENTONG"
    )
    assert address(
        "PIZZA CO SDN BHD", "PIZZA CO TAMAN UNIVERSITI", "30, JLN KEBUDAYAAN 7, TMN UNIVERSITI", "81300 SKUDAI, JOHOR"
    ) == ("PIZZA CO TAMAN UNIVERSITI 30, JLN KEBUDAYAAN 7, TMN UNIVERSITI 81300 SKUDAI, JOHOR")


def test_a_header_without_an_address_gives_none():
    assert address("INSIGHTSHOP", "Everyday clothing for the whole family", "2 x White Oxford Shirt   58.00") is None


def test_numbered_lines_under_the_contact_details_without_street_or_postcode_are_no_address():
    lines = ("KOPI HOUSE SDN BHD (123456-K)", "TEL: 03-1234 5678", "GST ID: 000123456789", "TAX RECEIPT")
    assert address(*lines, "7 KOPI2", "12 SITI", "CHK", "5 JAN 18") is None
    # a street or a postcode below the contact lines is still the address
    assert address(*lines, "12, JALAN MAJU 3,", "TAMAN MAJU") == "12, JALAN MAJU 3, TAMAN MAJU"
    assert address(*lines, "12 KOPI", "47400 PETALING JAYA") == "12 KOPI 47400 PETALING JAYA"


# items -----------------------------------------------------------------------------------------------------------


def items(*texts: str) -> list[tuple]:
    return [(i.item_name, i.quantity, i.unit_price, i.total_price) for i in run(*texts).items]


def test_name_quantity_price_and_total_on_one_line():
    assert items("SHOP", "DESCRIPTION QTY PRICE AMOUNT", "PLASTIC 2 15.50 31.00", "TOTAL : 31.00") == [
        ("PLASTIC", Decimal(2), Decimal("15.50"), Decimal("31.00"))
    ]


def test_an_invoice_table_below_a_summary_band_with_sku_and_was_sub_lines():
    assert items(
        "Shop Receipt",
        "AMOUNT PAID ORDER DATE",
        "$153.90 24 Nov 2026",
        "ITEM QTY UNIT PRICE AMOUNT",
        "Wool Overcoat 1 $90.00 $90.00",
        "White / M · SKU IS000001-WHT-M was $120.00",
        "Cotton Tee 2 $20.00 $40.00",
        "Navy blue / S · SKU IS000002-NAV-S",
        "Subtotal $130.00",
        "Total $130.00",
    ) == [
        ("Wool Overcoat", Decimal(1), Decimal("90.00"), Decimal("90.00")),
        ("Cotton Tee", Decimal(2), Decimal("20.00"), Decimal("40.00")),
    ]


def test_a_count_line_is_not_a_column_heading():
    assert items("SHOP", "TEA 1 X 3.90 3.90", "ITEM(S) : 1 QTY(S) : 1", "TOTAL RM 3.90") == [
        ("TEA", Decimal(1), Decimal("3.90"), Decimal("3.90"))
    ]


def test_names_printed_below_their_numbers_are_paired_below():
    assert items(
        "SHOP",
        "ITEM QTY U/P AMOUNT",
        "NE3555 2 1.00 2.00",
        "SAFETY PIN",
        "SB/01-3 1 7.00 7.00",
        "SATIN BIAS TAPE",
        "TOTAL QTY: 3",
        "SUB-TOTAL: 9.00",
    ) == [("SAFETY PIN", 2, Decimal("1.00"), Decimal("2.00")), ("SATIN BIAS TAPE", 1, Decimal("7.00"), Decimal("7.00"))]


def test_numbers_one_per_line_are_read_as_one_row():
    assert items("SHOP", "CODE/DESC PRICE DISC AMOUNT", "KF MODELLING CLAY", "1 PC", "*", "9.000", "0.00", "9.00",
                 "TOTAL:", "9.00") == [("KF MODELLING CLAY", 1, Decimal("9.000"), Decimal("9.00"))]  # fmt: skip


def test_a_quantity_line_goes_to_the_item_whose_total_it_explains():
    assert items("SHOP", "01/02/2019", "CHICKEN 12.45", "2 @ 1.25", "AVOCADO 2.50", "SUBTOTAL 14.95") == [
        ("CHICKEN", None, None, Decimal("12.45")),
        ("AVOCADO", 2, Decimal("1.25"), Decimal("2.50")),
    ]


def test_a_description_over_several_lines_is_joined():
    assert items(
        "SHOP", "DESCRIPTION QTY PRICE AMOUNT", "1 06S BRAISED 1 20.00 20.00", "PORK LEG SMALL", "TOTAL: 20.00"
    ) == [("BRAISED PORK LEG SMALL", 1, Decimal("20.00"), Decimal("20.00"))]


def test_a_leading_quantity_and_a_price_times_count():
    assert items(
        "SHOP", "Server: Ann", "2  Fries  $7.00", "9555039900843 3.05*1 3.05 S", "SAMUDRA BUN", "Total $10.05"
    )[0] == ("Fries", 2, None, Decimal("7.00"))


def test_name_pieces_boxed_one_per_line_after_the_quantity_are_joined_and_the_unlabelled_subtotal_is_no_price():
    # one box per line: the quantity, the name in short pieces ('12"PZ' would pass for a number), a code, the price;
    # under the last item the coupon discount and the sum of the items, unlabelled
    assert items(
        "PIZZA PLACE", "QTY", "MENU", "DESC", "PRICE",
        "1", '12"PZ', "(HW)", "LSX1-PSI", "18.90",
        "1", "T/B", "LVDX-RG-1", "4.50",
        "1", "GARLIC", "BRD1-ADI", "6.50", "5.00", "29.90",
        "SUB-TOTAL", ":", "29.90", "GRAND TOTAL", ":", "24.90",
    ) == [
        ('12"PZ (HW)', None, None, Decimal("18.90")),
        ("T/B LVDX-RG-1", None, None, Decimal("4.50")),
        ("GARLIC", None, None, Decimal("6.50")),
    ]  # fmt: skip
    # a short flag or unit under a quantity is no name
    assert [name for name, *_ in items("SHOP", "ITEM QTY AMOUNT", "TEA BAGS", "1", "MS", "4.00", "TOTAL 4.00")] == [
        "TEA BAGS"
    ]


def test_a_dash_inside_a_name_is_no_discount_but_a_negative_price_is():
    assert items(
        "CAFE", "ITEM QTY TOTAL",
        "SR I00100000042- 2 FISH + 1 VEGE", "1", "7.40",
        'PUNCH SET 1/8"-3/4"', "1", "12.00",
        "MEMBER PRICE", "-1.00",
        "TOTAL", "18.40",
    ) == [
        ("SR I00100000042- 2 FISH + 1 VEGE", 1, None, Decimal("7.40")),
        ('PUNCH SET 1/8"-3/4"', 1, None, Decimal("12.00")),
    ]  # fmt: skip


# engines ---------------------------------------------------------------------------------------------------------


def test_an_unknown_engine_is_refused_with_the_names_that_exist():
    with pytest.raises(Invalid) as raised:
        extract(ReceiptDocument.from_lines(["TOTAL 1.00"]), engine="nope")
    assert "offline" in raised.value.details


def test_engines_register_by_name(monkeypatch):
    from insightshop.services.receipts import extraction

    monkeypatch.setattr(extraction, "ENGINES", dict(extraction.ENGINES))
    register_engine("echo", lambda document, today: run("TOTAL 2.00"))
    assert "echo" in available_engines()
    assert extract(ReceiptDocument.from_lines([]), engine="echo").total_amount.value == Decimal("2.00")


def test_an_empty_document_gives_empty_fields():
    result = run()
    assert result.total_amount.value is None and result.items == () and result.confidence == 0
