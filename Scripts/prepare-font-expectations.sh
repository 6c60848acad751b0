#!/usr/bin/env bash
# Writes the independent truth the font tests compare against (run on Debian 12, then commit):
#   fixtures/fonts/names.tsv    family and style of each face as fontconfig's fc-scan reports them
#   fixtures/fonts/shaping.tsv  glyphs and positions from HarfBuzz's own hb-shape (Debian libharfbuzz-bin)
# Needs: fontconfig (fc-scan), libharfbuzz-bin (hb-shape), fonts-dejavu-core, fonts-ipaexfont-gothic,
# fonts-lohit-deva. Preparation only: the tests read the committed files and need none of these tools.
set -euo pipefail
cd "$(dirname "$0")/.."
out=fixtures/fonts
mkdir -p "$out"
{
    echo -e "# path\tindex\tfamily (first fc-scan family)\tstyle (first fc-scan style)"
    for f in /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
        /usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf /usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf \
        /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf \
        /usr/share/fonts/truetype/dejavu/DejaVuSans-ExtraLight.ttf \
        /usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf \
        /usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf; do
        fc-scan --format '%{file}\t%{index}\t%{family[0]}\t%{style[0]}\n' "$f"
    done
} >"$out/names.tsv"
{
    echo -e "# font\ttext\thb-shape --no-glyph-names output (gid=cluster@dx,dy+advance in font units)"
    shape() { echo -e "$1\t$2\t$(hb-shape --no-glyph-names "$1" "$2")"; }
    dejavu=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
    lohit=/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf
    shape $dejavu "القاهرة"   # Cairo: joining forms, right to left
    shape $dejavu "عمّان"      # Amman: shadda mark positioned on its base
    shape $dejavu "بيروت"     # Beirut
    shape $dejavu "ירושלים"   # Jerusalem, Hebrew
    shape $lohit "नई दिल्ली"    # New Delhi: the conjunct ल्ल
    shape $lohit "क्षत्रिय"      # conjuncts क्ष and त्र, the i-matra reordered before its consonant
    shape $lohit "हिन्दी"       # Hindi
} >"$out/shaping.tsv"
echo "wrote $out/names.tsv and $out/shaping.tsv"
