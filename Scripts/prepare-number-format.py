#!/usr/bin/env python3
"""Writes fixtures/fonts/number-format.tsv: `number-format` results computed with Babel (CLDR data,
pip install babel), the independent truth for MapStyle's NumberFormat. Rounding half away from zero
(ROUND_HALF_UP in Python's decimal), as JavaScript's Intl.NumberFormat rounds. Preparation only."""
import decimal
from babel.numbers import format_currency, format_decimal

cases = []
values = ["1234.5678", "0.5", "-1234.5", "1000000", "2.5", "0.0005", "999.9996", "12"]
digits = [(None, None), (2, 2), (0, 0), (None, 1), (3, None)]
for locale in ["en", "de", "fr", "ja"]:
    for v in values:
        for lo, hi in digits:
            fmt = "#,##0"
            mn = 0 if lo is None else lo
            mx = (max(3, mn) if hi is None else hi)
            mn = min(mn, mx)
            fmt += ("." + "0" * mn + "#" * (mx - mn)) if mx > 0 else ""
            with decimal.localcontext() as ctx:
                ctx.rounding = decimal.ROUND_HALF_UP
                text = format_decimal(decimal.Decimal(v), format=fmt, locale=locale, decimal_quantization=True)
            cases.append((v, locale, "", "" if lo is None else str(lo), "" if hi is None else str(hi), text))
    for v in ["1234.5", "0.125", "-3.5", "1234567.891"]:
        for cur in ["USD", "EUR", "GBP", "JPY"]:
            with decimal.localcontext() as ctx:
                ctx.rounding = decimal.ROUND_HALF_UP
                text = format_currency(decimal.Decimal(v), cur, locale=locale)
            cases.append((v, locale, cur, "", "", text))
with open("fixtures/fonts/number-format.tsv", "w") as f:
    f.write("# value\tlocale\tcurrency\tmin-fraction-digits\tmax-fraction-digits\texpected (Babel, CLDR)\n")
    for c in cases:
        f.write("\t".join(c) + "\n")
print(len(cases), "cases")
