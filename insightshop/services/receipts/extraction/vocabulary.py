"""The offline extractor's words, as data: labels of the totals block, currencies, countries, months, company and
address words. The pipeline reads these tables; adding a spelling or a language is a data change.

Phrases are written in upper case; they are matched word by word (runs of letters and digits), so punctuation and
spacing inside a phrase do not matter ("SUB-TOTAL", "SUB TOTAL" and "SUB TOTAL:" are the same phrase).
"""

from __future__ import annotations

# Tables of words read better packed than one per line.
# fmt: off

# --- Labels of amounts --------------------------------------------------------------------------------------------
# kind -> phrases. When phrases overlap on a line the longest wins ("TOTAL GST" is tax, not total).
LABELS: dict[str, tuple[str, ...]] = {
    # The amount to pay, said explicitly.
    "total_final": (
        "GRAND TOTAL", "NETT TOTAL", "NET TOTAL", "FINAL TOTAL", "TOTAL PAYABLE", "AMOUNT PAYABLE", "AMT PAYABLE",
        "TOTAL AMT PAYABLE", "TOTAL AMOUNT PAYABLE", "NETT AMOUNT", "NET AMOUNT", "NETT AMT", "NET AMT", "AMOUNT DUE",
        "TOTAL DUE", "BALANCE DUE", "AMOUNT TO PAY", "TO PAY", "TOTAL AMOUNT", "TOTAL AMT", "TOTAL RM", "TOTAL MYR",
        "TOTAL USD", "TOTAL EUR", "TOTAL GBP", "TOTAL SGD", "TOTAL INCL", "TOTAL INC", "TOTAL INCLUSIVE", "INCL GST",
        "INC GST", "INCLUSIVE GST", "INCLUSIVE OF GST", "INCL OF GST", "INCL TAX", "INCLUSIVE OF TAX", "INCL SST",
        "INCL VAT", "TOTAL INCL GST", "TOTAL INC GST", "TOTAL INCL TAX", "TOTAL INCL VAT", "TOTAL INCL SST",
        "TOTAL INCLUSIVE GST", "TOTAL INCLUSIVE OF GST", "TOTAL SALES INCL GST", "TOTAL GST INCL", "TOTAL GST INC",
        "TOTAL TAX INCL", "GST INCL", "GST INC", "TAX INCL", "VAT INCL", "TOTAL AFTER ADJ", "TOTAL AFTER ROUNDING",
        "AFTER ROUNDING", "TOTAL SALES INCL", "ROUNDED TOTAL", "TOTAL ROUNDED", "ROUNDING TOTAL", "JUMLAH",
        "JUMLAH BESAR", "JUMLAH BAYARAN", "JUMLAH KESELURUHAN", "SUMME", "GESAMT", "GESAMTBETRAG", "ZU ZAHLEN",
        "ENDBETRAG", "BETRAG", "TOTAL TTC", "NET A PAYER", "MONTANT TTC", "TOTALE", "TOTALE EURO", "IMPORTE TOTAL",
        "TOTAL A PAGAR", "TOTAAL", "TE BETALEN", "TOTAL A PAYER", "AMT DUE", "PAYABLE", "AMOUNT TO BE PAID",
        "TO BE PAID", "DUE",
    ),
    # A total that may still be followed by rounding, service or a better-named total.
    "total": (
        "TOTAL", "TOTAL SALES", "TOTAL SALE", "TOTAL BILL", "BILL TOTAL", "TOTAL PRICE", "SALES TOTAL", "TOTAL RP",
        "AMOUNT",
    ),
    "subtotal": (
        "SUBTOTAL", "SUB TOTAL", "SUB TTL", "GROSS AMT", "GROSS AMOUNT", "GROSS TOTAL", "GROSS", "SUBTTL",
        "SUB AMOUNT", "TOTAL EXCL", "TOTAL EXCLUDING", "EXCL GST", "EXCLUDING GST", "EXCL OF GST", "EXCLUSIVE OF GST",
        "EXCL TAX", "EXCLUDING TAX", "BEFORE TAX", "BEFORE GST", "TOTAL BEFORE", "PRE TAX", "NET SALES", "TOTAL HT",
        "SOUS TOTAL", "ZWISCHENSUMME", "NETTO", "NETTOBETRAG", "SUBTOTALE", "SUBTOTAAL", "BASE IMPONIBLE", "TOTAL NET",
        "NET TOTAL EXCL",
    ),
    "tax": (
        "GST", "TAX", "SST", "VAT", "TOTAL GST", "TOTAL TAX", "TOTAL SST", "TOTAL VAT", "SALES TAX", "GST AMOUNT",
        "GST AMT", "TAX AMOUNT", "TAX AMT", "GST PAYABLE", "SERVICE TAX", "STATE TAX", "CITY TAX", "LOCAL TAX", "HST",
        "PST", "QST", "MWST", "UST", "MEHRWERTSTEUER", "TVA", "IVA", "BTW", "CGST", "SGST", "IGST", "GST 6", "SST 6",
        "SST 10", "GST 0", "TAX 6", "INCLUDED IN TOTAL", "GST INCLUDED", "INCL IN TOTAL", "TAX INCLUDED",
        "GST INCLUDED IN TOTAL", "VAT INCLUDED", "TOTAL INCLUDED GST", "INCLUDED GST", "TOTAL INCLUDES GST",
    ),
    "rounding": (
        "ROUNDING", "ROUNDING ADJ", "ROUNDING ADJUSTMENT", "ROUND ADJ", "ROUNDING ADJUSTMENTS", "RND ADJ", "ROUNDED",
        "ROUND OFF", "ROUNDING OFF", "ADJUSTMENT", "ADJ", "PENGGENAPAN", "ROUND",
    ),
    "cash": (
        "CASH", "CASH TENDERED", "TENDERED", "TENDER", "AMOUNT TENDERED", "PAID", "PAID AMOUNT", "AMOUNT PAID",
        "PAYMENT", "RECEIVED", "PAY", "AMOUNT RECEIVED", "VISA", "MASTER", "MASTERCARD", "MASTER CARD", "AMEX",
        "CREDIT CARD", "DEBIT CARD", "CREDIT", "DEBIT", "CARD", "EFTPOS", "TUNAI", "BAYARAN", "BAR", "GEGEBEN",
        "EC CASH", "ESPECES", "EFECTIVO", "CONTANTI", "CONTANT", "CB", "TNG", "GRABPAY", "BOOST", "E WALLET",
        "EWALLET",
    ),
    "change": (
        "CHANGE", "CHANGE DUE", "CHANGE AMT", "CHANGE AMOUNT", "YOUR CHANGE", "BALANCE", "BAKI", "RUCKGELD", "RÜCKGELD",
        "RUECKGELD", "ZURUCK", "RENDU", "MONNAIE", "CAMBIO", "VUELTO", "RESTO", "WISSELGELD",
    ),
    "discount": (
        "DISCOUNT", "DISC", "TOTAL DISCOUNT", "TOTAL DISC", "ITEM DISCOUNT", "BILL DISCOUNT", "SAVINGS", "YOU SAVED",
        "TOTAL SAVINGS", "VOUCHER", "COUPON", "RABATT", "REMISE", "DESCUENTO", "SCONTO", "KORTING", "PROMO",
        "MEMBER DISCOUNT", "LESS",
    ),
    "service": (
        "SERVICE CHARGE", "SERVICE CHRG", "SVC CHG", "SVC CHARGE", "SERVICE CHG", "SERVICE", "TIP", "GRATUITY",
        "SHIPPING", "DELIVERY", "DELIVERY FEE", "TAKEAWAY CHARGE",
    ),
    "quantity": ("QTY", "QUANTITY", "PCS", "UNITS"),
    # The count of items or pieces under the items ("TOTAL QTY: 3"): the items end there.
    "count": (
        "TOTAL QTY", "TOTAL QUANTITY", "ITEM COUNT", "TOTAL ITEM", "TOTAL ITEMS", "NO OF ITEMS", "NO OF ITEM", "ITEMS",
        "ITEM S", "TOTAL QTY TENDER", "QTY S", "NO OF QTY", "TOTAL PCS", "TOTAL UNITS",
    ),
    # Lines that mention a label word without being that label.
    "other": (
        "TAX INVOICE", "SIMPLIFIED TAX INVOICE", "GST ID", "GST NO", "GST REG", "GST REG NO", "GST REGISTRATION",
        "TAX ID", "TAX NO", "VAT NO", "VAT REG", "SST ID", "SST NO", "SST REG", "CASH BILL", "CASH SALES", "CASH SALE",
        "CASH RECEIPT", "CASH INVOICE", "CASH INV", "CASH INV NO", "CASHIER", "TAX CODE", "GST CODE",
        "CASH SALES COUNTER", "CASH DRAWER", "ROUND TRIP", "CHANGE OF", "CHANGE ITEM", "EXCHANGE", "CARD NO",
        "CARD TYPE", "CARD NUMBER", "APPROVAL CODE", "TOTAL STAMP", "TOTAL STAMPS", "STAMPS", "POINTS", "TOTAL POINTS",
        "POINT", "BONUS", "MEMBER", "TAX RATE", "GST RATE", "INVOICE NO", "AMOUNT RM", "AMOUNT MYR", "AMT RM",
        "DISC RM", "PRICE RM", "TOTAL RM RM", "TAX RM", "GST RM", "AMOUNT EXCL", "TAX EXCL",
    ),
    # The start of a tax summary table: totals below it are the table's, not the receipt's.
    "summary": ("GST SUMMARY", "TAX SUMMARY", "SST SUMMARY", "VAT SUMMARY", "SUMMARY", "GST ANALYSIS", "TAX ANALYSIS"),
}

# A rounding adjustment is less than this; a "rounding" amount at least this big is the rounded total.
MAX_ROUNDING = 1

# Kinds whose amounts can be the receipt's total, strongest first.
TOTAL_KINDS = ("total_final", "total")

# --- Currencies ---------------------------------------------------------------------------------------------------
# Printed marker -> ISO 4217 code. "$" alone is decided by the country (see DOLLAR_BY_COUNTRY).
CURRENCY_MARKERS: dict[str, str] = {
    "RM": "MYR", "MYR": "MYR", "US$": "USD", "USD": "USD", "S$": "SGD", "SGD": "SGD", "A$": "AUD", "AUD": "AUD",
    "C$": "CAD", "CAD": "CAD", "NZ$": "NZD", "NZD": "NZD", "HK$": "HKD", "HKD": "HKD", "€": "EUR", "EUR": "EUR",
    "£": "GBP", "GBP": "GBP", "¥": "JPY", "JPY": "JPY", "RMB": "CNY", "CNY": "CNY", "₹": "INR",
    "INR": "INR", "RS": "INR", "RP": "IDR", "IDR": "IDR", "฿": "THB", "THB": "THB", "CHF": "CHF", "₱": "PHP",
    "PHP": "PHP", "₩": "KRW", "KRW": "KRW", "R$": "BRL", "BRL": "BRL", "ZŁ": "PLN", "PLN": "PLN", "SEK": "SEK",
    "NOK": "NOK", "DKK": "DKK", "$": "$",
}
# Markers too short or common to mean a currency unless printed right beside a number.
NOT_STANDALONE_MARKERS = frozenset({"RS", "RP"})
DOLLAR_BY_COUNTRY: dict[str, str] = {
    "US": "USD", "SG": "SGD", "AU": "AUD", "CA": "CAD", "NZ": "NZD", "HK": "HKD", "MY": "MYR",
}
DEFAULT_DOLLAR = "USD"
CURRENCY_BY_COUNTRY: dict[str, str] = {
    "MY": "MYR", "US": "USD", "SG": "SGD", "AU": "AUD", "CA": "CAD", "NZ": "NZD", "HK": "HKD", "GB": "GBP",
    "EU": "EUR", "IN": "INR", "ID": "IDR", "TH": "THB", "PH": "PHP", "CH": "CHF",
}

# --- Countries ----------------------------------------------------------------------------------------------------
# country -> regular expressions (matched on the upper-cased text); each hit is one vote.
COUNTRY_HINTS: dict[str, tuple[str, ...]] = {
    "MY": (
        r"\bSDN\.?\s*BHD\b", r"\bS/B\b", r"\bBERHAD\b", r"\bMALAYSIA\b", r"\bJALAN\b", r"\bJLN\b", r"\bTAMAN\b",
        r"\bSELANGOR\b", r"\bKUALA LUMPUR\b", r"\bJOHOR\b", r"\bPENANG\b", r"\bPULAU PINANG\b", r"\bPERAK\b",
        r"\bSABAH\b", r"\bSARAWAK\b", r"\bMELAKA\b", r"\bKEDAH\b", r"\bPAHANG\b", r"\bNEGERI SEMBILAN\b",
        r"\bGST ID\b", r"\bSST\b", r"\bRM\s?\d", r"\bMYR\b",
    ),
    "US": (
        r"\b(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|"
        r"OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC),?\s+\d{5}(?:-\d{4})?\b", r"\bUSA\b",
        r"\bUNITED STATES\b", r"\bSALES TAX\b", r"\bUSD\b", r"\bUS\$",
    ),
    "SG": (r"\bSINGAPORE\b", r"\bPTE\.?\s*LTD\b", r"\bUEN\b", r"\bSGD\b", r"\bS\$"),
    "AU": (r"\bAUSTRALIA\b", r"\bPTY\.?\s*LTD\b", r"\bABN\b", r"\bAUD\b"),
    "CA": (r"\bCANADA\b", r"\bGST/HST\b", r"\bHST\b", r"\bQST\b", r"\bCAD\b"),
    "GB": (
        r"\bUNITED KINGDOM\b", r"\bLONDON\b", r"\bVAT REG", r"£", r"\bGBP\b",
        r"\b[A-Z]{1,2}\d{1,2}[A-Z]?\s\d[A-Z]{2}\b",
    ),
    "EU": (
        r"\bGMBH\b", r"\bMWST\b", r"\bUST-?ID", r"\bDEUTSCHLAND\b", r"\bSTR(?:ASSE|\.)", r"\bTVA\b", r"\bSIRET\b",
        r"\bFRANCE\b", r"\bIVA\b", r"\bESPA[NÑ]A\b", r"\bBTW\b", r"\bNEDERLAND\b", r"\bITALIA\b", r"€", r"\bEUR\b",
        r"\bSUMME\b", r"\bGESAMT\b",
    ),
    "IN": (r"\bGSTIN\b", r"\bCGST\b", r"\bSGST\b", r"\bINDIA\b", r"₹"),
}
# Countries whose numeric dates are month first; everywhere else day first.
MONTH_FIRST_COUNTRIES = frozenset({"US", "PH"})
MONTH_FIRST_CURRENCIES = frozenset({"USD"})

# --- Dates --------------------------------------------------------------------------------------------------------
MONTHS: dict[str, int] = {
    # English
    "JAN": 1, "JANUARY": 1, "FEB": 2, "FEBRUARY": 2, "MAR": 3, "MARCH": 3, "APR": 4, "APRIL": 4, "MAY": 5, "JUN": 6,
    "JUNE": 6, "JUL": 7, "JULY": 7, "AUG": 8, "AUGUST": 8, "SEP": 9, "SEPT": 9, "SEPTEMBER": 9, "OCT": 10,
    "OCTOBER": 10, "NOV": 11, "NOVEMBER": 11, "DEC": 12, "DECEMBER": 12,
    # Malay
    "MAC": 3, "MEI": 5, "OGO": 8, "OGOS": 8, "OKT": 10, "DIS": 12, "JANUARI": 1, "FEBRUARI": 2, "JULAI": 7,
    # German, French, Spanish, Italian, Dutch
    "MÄR": 3, "MRZ": 3, "MÄRZ": 3, "MAERZ": 3, "MAI": 5, "JUNI": 6, "JULI": 7, "DEZ": 12, "DEZEMBER": 12, "JANV": 1,
    "FÉV": 2, "FEV": 2, "FÉVR": 2, "FEVR": 2, "MARS": 3, "AVR": 4, "AVRIL": 4, "JUIN": 6, "JUIL": 7, "AOÛT": 8,
    "AOUT": 8, "DÉC": 12, "ENE": 1, "ENERO": 1, "ABR": 4, "AGO": 8, "DIC": 12, "GEN": 1, "MAG": 5, "GIU": 6, "LUG": 7,
    "SET": 9, "OTT": 10, "MRT": 3, "OKTOBER": 10,
}
# Words that make a date on their line the purchase date, or rule it out.
DATE_LABELS = ("DATE", "DATED", "DATE TIME", "TARIKH", "DATUM", "FECHA", "DATA", "TRANS DATE", "INVOICE DATE", "DT")
NOT_PURCHASE_DATE = (
    "EXPIRY", "EXPIRES", "EXP", "VALID", "VALID UNTIL", "BEST BEFORE", "DUE DATE", "WARRANTY", "BIRTH", "DOB",
    "MEMBER SINCE", "PRINTED", "RETURN BY", "RETURN BEFORE",
)
EARLIEST_YEAR = 1990

# --- Merchant and address -----------------------------------------------------------------------------------------
# Legal forms (strong signal that the line names the company), as regular expressions on upper-cased text.
LEGAL_FORMS = (
    r"\bSDN\.?\s*(?:BHD|BND|BH|BHO)\.?", r"\bSDN\b", r"\bBHD\b\.?", r"\bBERHAD\b", r"\bS/B\b", r"\bPTE\.?\s*LTD\b",
    r"\bLTD\b\.?", r"\bLIMITED\b", r"\bLLC\b", r"\bL\.L\.C\.", r"\bINC\b\.?", r"\bCORP\b\.?", r"\bCORPORATION\b",
    r"\bPLC\b", r"\bGMBH\b", r"\bAG\b", r"\bS\.?A\.?R\.?L\b", r"\bS\.A\.", r"\bS\.L\.", r"\bB\.V\.", r"\bPTY\b",
    r"\bCO\.,? LTD\b", r"\bSB\b(?=\s*\(|\s*$)",
)
# Business words: a weaker signal, used when no line carries a legal form.
BUSINESS_WORDS = (
    r"\bENTERPRISE\b", r"\bTRADING\b", r"\bRESTAURANT\b", r"\bRESTORAN\b", r"\bMART\b", r"\bSUPERMARKET\b",
    r"\bHYPERMARKET\b", r"\bMINIMARKET\b", r"\bMINI MARKET\b", r"\bHARDWARE\b", r"\bSTATIONERY\b", r"\bPHARMACY\b",
    r"\bFARMASI\b", r"\bBAKERY\b", r"\bCAFE\b", r"\bKAFE\b", r"\bSTORE\b", r"\bSTORES\b", r"\bSHOP\b", r"\bMARKET\b",
    r"\bPERNIAGAAN\b", r"\bSYARIKAT\b", r"\bKEDAI\b", r"\bPASARAYA\b", r"\bPASAR\b", r"\bHOLDINGS\b",
    r"\bINDUSTRIES\b", r"\bMARKETING\b", r"\bSERVICES\b", r"\bBOOKSTORE\b", r"\bBOOKSTORES\b", r"\bCOMPANY\b",
    r"\bKITCHEN\b", r"\bFOOD\b", r"\bFOODS\b", r"\bGALLERY\b", r"\bDISTRIBUTOR\b", r"\bBISTRO\b", r"\bCLINIC\b",
    r"\bKLINIK\b", r"\bHOTEL\b", r"\bMOTEL\b", r"\bPIZZA\b", r"\bGRILL\b", r"\bDELI\b", r"\bBAR\b", r"\bPUB\b",
    r"\bCOFFEE\b", r"\bTEA\b", r"\bBOOKS\b", r"\bELECTRICAL\b", r"\bELECTRONICS\b", r"\bAUTO\b", r"\bMOTOR\b",
    r"\bPETROL\b", r"\bSTATION\b", r"\bOUTLET\b", r"\bBOUTIQUE\b", r"\bSALON\b",
    r"\bGIFTS?\b", r"\bDECO\b", r"\bFASHION\b", r"\bTEXTILES?\b", r"\bFURNITURE\b", r"\bJEWELLERY\b", r"\bOPTICAL\b",
    r"\bPRINTING\b", r"\bSTUDIO\b", r"\bNOODLES?\b", r"\bKOPITIAM\b", r"\bCONFECTIONERY\b", r"\bFLORIST\b",
    r"\bLAUNDRY\b", r"\bTYRES?\b", r"\bWORKSHOP\b", r"\bBEAUTY\b", r"\bHEALTHCARE\b", r"\bMEDICAL\b", r"\bDENTAL\b",
    r"\bBOOKSHOP\b", r"\bTRAVEL\b", r"\bENGINEERING\b", r"\bCONSTRUCTION\b", r"\bSUPPLY\b", r"\bSUPPLIES\b",
    r"\bDISTRIBUTION\b", r"\bAGENCY\b", r"\bSEAFOOD\b", r"\bCATERING\b", r"\bBAKERIES\b", r"\bPHARMACEUTICAL\b",
)
# Lines at the top that are not the merchant.
NOT_MERCHANT = (
    r"\bTAX INVOICE\b", r"\bINVOICE\b", r"TAX\s*INVOICE", r"\bRECEIPT\b", r"\bWELCOME\b", r"\bTHANK", r"\bCASH ?BILL\b",
    r"\bCASH SALES?\b", r"\bGST\b", r"\bTEL\b", r"\bFAX\b", r"\bPHONE\b", r"\bORDER\b", r"\bTABLE\b", r"\bCASHIER\b",
    r"\bCOPY\b", r"\bDUPLICATE\b", r"\bREPRINT\b", r"\bCUSTOMER\b", r"\bMEMBER\b", r"\bWWW\.", r"@", r"\bHTTP",
    r"\bCREDIT NOTE\b", r"\bOFFICIAL\b", r"\bSTATEMENT\b", r"\bCHECK\b", r"\bDATE\b", r"\bCO\.?\s*(?:REG|NO)\b",
    r"\bCOMPANY\s+(?:REG|NO)\b", r"\bROC\b", r"\bREG\.?\s*NO\b", r"\bBILL\b", r"\bTQ\b", r"\bSHOPPING WITH\b",
    r"\bMANAGER\b", r"\bMGR\b", r"\bST#", r"\bSTORE\s*#",
    r"\b[A-Z0-9-]{2,}\.[A-Z0-9-]{2,}\.[A-Z]{2,}\b", r"\b[A-Z0-9-]{2,}\.(?:COM|NET|ORG)\b",
    r"\bKASSENBON\b", r"\bRECHNUNG\b", r"\bQUITTUNG\b", r"\bTICKET\b", r"\bFACTURA\b", r"\bFACTURE\b",
)
# Prefixes before a company's name that are not part of it ("Welcome to", a branch number).
MERCHANT_PREFIXES = (
    r"^\s*WELCOME\s+TO\s+", r"^\s*(?:DIMILIKI(?:\s+OLEH)?|OWN(?:ED)?\s+BY|OPERATED\s+BY)\s*:\s*", r"^\s*#\d+\s+",
    r"^\s*\d{5,}\s+",
)
# A company registration number printed after the name: "(519537-X)", "1110644-W", "(CO. NO. 113825-W)".
REGISTRATION = r"\(?\s*(?:CO\.?\s*(?:REG|NO)\.?\s*:?\s*)?\d{3,}[- ]?[A-Z]\s*\)?|\(\s*[A-Z]{1,3}\d{5,}[- ]?[A-Z]?\s*\)"

# Words that start an address (a street, a lot, a building) …
STREET_WORDS = (
    r"\bJALAN\b", r"\bJLN\b", r"\bJL\b", r"\bLOT\b", r"\bNO\b", r"\bTAMAN\b", r"\bTMN\b", r"\bLORONG\b",
    r"\bPERSIARAN\b", r"\bLEBUH\b", r"\bLEBUHRAYA\b", r"\bBANDAR\b", r"\bKAMPUNG\b", r"\bKG\b", r"\bSEKSYEN\b",
    r"\bBLOK\b", r"\bBLOCK\b", r"\bBLK\b", r"\bFLOOR\b", r"\bFLR\b", r"\bLEVEL\b", r"\bLVL\b", r"\bWISMA\b",
    r"\bPLAZA\b", r"\bMALL\b", r"\bKOMPLEKS\b", r"\bCOMPLEX\b", r"\bCENTRE\b", r"\bCENTER\b", r"\bSHOPPING\b",
    r"\bPUSAT\b", r"\bKAWASAN\b", r"\bPERINDUSTRIAN\b", r"\bINDUSTRIAL\b", r"\bMEDAN\b", r"\bDESA\b", r"\bROAD\b",
    r"\bRD\b", r"\bSTREET\b", r"\bST\b", r"\bAVENUE\b", r"\bAVE\b", r"\bBLVD\b", r"\bBOULEVARD\b", r"\bDRIVE\b",
    r"\bDR\b", r"\bLANE\b", r"\bLN\b", r"\bHWY\b", r"\bHIGHWAY\b", r"\bSUITE\b", r"\bSTE\b", r"\bUNIT\b", r"\bPLACE\b",
    r"\bPKWY\b", r"\bWAY\b", r"\bSQUARE\b", r"\bSQ\b", r"\bSTRASSE\b", r"STR\.", r"STRASSE\b", r"STRAßE\b", r"\bPLATZ\b",
    r"[A-ZÄÖÜ]{3,}(?:WEG|PLATZ|ALLEE|GASSE|DAMM|RING|UFER)\b",
    r"\bWEG\b", r"\bRUE\b", r"\bCALLE\b", r"\bVIA\b", r"\bPIAZZA\b", r"\bCORSO\b", r"\bAVENIDA\b", r"\bAVDA\b", r"\bC/\s?[A-Z]", r"\bSTRAAT\b",
    r"\bGRACHT\b",
)
# … and words that only continue one (states, cities, countries).
PLACE_WORDS = (
    r"\bMALAYSIA\b", r"\bSELANGOR\b", r"\bKUALA LUMPUR\b", r"\bJOHOR\b", r"\bPENANG\b", r"\bPULAU PINANG\b",
    r"\bPERAK\b", r"\bMELAKA\b", r"\bKEDAH\b", r"\bPAHANG\b", r"\bSABAH\b", r"\bSARAWAK\b", r"\bNEGERI SEMBILAN\b",
    r"\bDARUL\b", r"\bD\.E\b", r"\bWILAYAH\b", r"\bPETALING JAYA\b", r"\bSHAH ALAM\b", r"\bKLANG\b", r"\bCHERAS\b",
    r"\bPUCHONG\b", r"\bSINGAPORE\b", r"\bUSA\b", r"\bGERMANY\b", r"\bDEUTSCHLAND\b", r"\bFRANCE\b", r"\bUK\b",
)
# A postal code on its own: 5 digits (MY, US, DE, FR …), US ZIP+4, or a UK postcode.
POSTCODE = r"(?<![\d-])\d{5}(?:-\d{4})?(?![\d-])|\b[A-Z]{1,2}\d{1,2}[A-Z]?\s\d[A-Z]{2}\b"
# States and countries that end a printed address ("… 81750 MASAI, JOHOR", "SELANGOR DARUL EHSAN", "SELANGOR D.E.").
STATES = (
    r"MALAYSIA|SELANGOR|JOHOR|PENANG|PULAU PINANG|PERAK|MELAKA|KEDAH|PAHANG|SABAH|SARAWAK|NEGERI SEMBILAN|TERENGGANU|"
    r"KELANTAN|PERLIS|PUTRAJAYA|LABUAN|DARUL \w+|D\.\s?E\b\.?"
)
# Cities that end an address printed without a postcode ("NO7,JLN UERO,SHAH ALAM."): only a postcode, state or country
# follows them in an address.
TOWNS = (
    r"KUALA LUMPUR|PETALING JAYA|SHAH ALAM|KLANG|CHERAS|PUCHONG|SUBANG JAYA|JOHOR BAHRU|SERI KEMBANGAN|KAJANG|AMPANG|"
    r"IPOH|SEREMBAN|GEORGETOWN|KUCHING|KOTA KINABALU"
)
# Names that may close an address on the line after the postcode line.
ADDRESS_TAIL = (
    r"^\W*(?:MALAYSIA|SELANGOR|JOHOR|PENANG|PULAU PINANG|PERAK|MELAKA|KEDAH|PAHANG|SABAH|SARAWAK|KUALA LUMPUR|"
    r"NEGERI SEMBILAN|TERENGGANU|KELANTAN|PERLIS|PUTRAJAYA|LABUAN|DARUL \w+|WILAYAH PERSEKUTUAN|USA|"
    r"UNITED STATES|SINGAPORE|GERMANY|DEUTSCHLAND|FRANCE|SPAIN|ITALY|UNITED KINGDOM|UK)\b[\w .,()]*$",
)
# Words that end an address: contact details, tax numbers, document titles.
ADDRESS_STOP = (
    r"\bTEL\b", r"\bTEL\s*[:.]", r"\bTELEPHONE\b", r"\bPHONE\b", r"\bFAX\b", r"\bH/P\b", r"\bHP\b", r"\bMOBILE\b",
    r"\bEMAIL\b", r"\bE-MAIL\b", r"@", r"\bWWW\b", r"\bHTTP", r"\bGST\b", r"\bSST\b", r"\bTAX\b", r"\bVAT\b",
    r"\bINVOICE\b", r"\bRECEIPT\b", r"\bCO\.?\s*(?:REG|NO)\b", r"\bCOMPANY\s+(?:REG|NO)\b", r"\bREG\.?\s*NO\b",
    r"\bROC\b", r"\bDATE\b", r"\bCASHIER\b", r"\bTABLE\b", r"\bORDER\b", r"\bOPEN\b", r"\bHOURS\b", r"\bCASH\s*BILL\b",
    r"\bCASH\b", r"\bDOC\b", r"\bDOCUMENT\b", r"\bBILL\b", r"\bUEN\b", r"\bABN\b", r"\bSTEUER", r"\bUST\b",
    r"\bMWST\b", r"\bSIRET\b", r"\bCIF\b", r"\bNIF\b", r"\bSTORE\s*#", r"\bTERMINAL\b", r"\bPOS\b",
    r"\b(?:BR|BRN|BUSINESS)\.?\s*(?:REG\.?\s*)?NO\b", r"\bSITE\b",
)
MAX_ADDRESS_LINES = 6

# --- Line items ---------------------------------------------------------------------------------------------------
# Column headers above the items.
ITEM_HEADERS = (
    r"\bQTY\b", r"\bDESCRIPTION\b", r"\bDESC\b", r"\bITEM\b", r"\bITEMS\b", r"\bPRODUCT\b", r"\bU/?PRICE\b",
    r"\bUNIT PRICE\b", r"\bAMOUNT\b", r"\bAMT\b", r"\bPRICE\b", r"\bMENGE\b", r"\bARTIKEL\b", r"\bBEZEICHNUNG\b",
    r"\bDESIGNATION\b", r"\bQTE\b", r"\bCANT\b",
)
# Lines inside the items block that are not items.
NOT_ITEM = (
    r"\bSUB\s*-?\s*TOTAL\b", r"\bTOTAL\b", r"\bGST\b", r"\bSST\b", r"\bTAX\b", r"\bVAT\b", r"\bROUNDING\b",
    r"\bDISCOUNT\b", r"\bDISC\b", r"\bCASH\b", r"\bCHANGE\b", r"\bTENDER", r"\bPAID\b", r"\bBALANCE\b", r"\bCHANGE\b",
    r"\bSHIPPING\b", r"\bSERVICE CHARGE\b", r"\bDEPOSIT\b", r"\bVOUCHER\b", r"\bPOINTS?\b", r"\bSAVINGS?\b",
    r"\bYOU SAVED\b", r"\bMWST\b", r"\bUST\b", r"\bSUMME\b", r"\bTVA\b", r"\bIVA\b", r"\bQTY\s*:", r"\bITEMS?\s*:",
    r"\bCASHIER\b", r"\bTABLE\b", r"\bINVOICE\b", r"\bDATE\b", r"\bTIME\b", r"\bHOURS\b", r"\bHRS\b",
)
# Quantity forms around an item's name: "2 x", "2 @", "X2", "QTY 2", "2 PC(S)".
QUANTITY_UNITS = ("PC", "PCS", "PCE", "EA", "EACH", "UNIT", "UNITS", "KG", "G", "L", "ML", "BTL", "PKT", "BOX", "X")
# Tax codes printed after a line total ("9.00 SR", "3.50 S", "4.99 T").
TAX_CODES = ("S", "SR", "Z", "ZR", "ZRL", "T", "E", "N", "NT", "TX", "ES", "OS", "ST", "A", "B", "F", "R", "D", "G", "Y")
# Words before a price that is not what the item cost here ("was 39.00").
PRICE_NOTES = ("WAS", "REG", "ORIG", "SAVE", "RRP", "U/P")
# fmt: on
