#include "text/unicode.hpp"

#include <doctest/doctest.h>

using namespace mailroom::text::unicode;

TEST_SUITE("mailroom::text::unicode")
{
  TEST_CASE("classes come from the Unicode data, not a hand-picked list")
  {
    CHECK(classify('a') == CharClass::visible);
    CHECK(classify(' ') == CharClass::space);
    CHECK(classify(0x3000) == CharClass::space);
    CHECK(classify(0x1B) == CharClass::control);
    CHECK(classify(0x9B) == CharClass::control);
    CHECK(classify(0x0301) == CharClass::mark);
    CHECK(classify(0x202E) == CharClass::bidi);
    CHECK(classify(0x061C) == CharClass::bidi);
    CHECK(classify(0x200B) == CharClass::format);
    CHECK(classify(0x180E) == CharClass::format);
    CHECK(classify(0x13430) == CharClass::format); // Egyptian hieroglyph format control
    CHECK(classify(0xE0001) == CharClass::tag);
    CHECK(classify(0xE0000) == CharClass::tag); // unassigned, still in the Tags block
    CHECK(classify(0xFE0F) == CharClass::variation_selector);
    CHECK(classify(0xE01EF) == CharClass::variation_selector);
    CHECK(classify(0x3164) == CharClass::ignorable);
    CHECK(classify(0x034F) == CharClass::ignorable);
    CHECK(classify(0x2028) == CharClass::separator);
    CHECK(classify(0xFFFE) == CharClass::noncharacter);
    CHECK(classify(0x10FFFF) == CharClass::noncharacter);
    CHECK(classify(0x110000) == CharClass::noncharacter);
    CHECK(classify(0xE000) == CharClass::visible); // private use is shown
  }

  TEST_CASE("cell widths")
  {
    CHECK(cell_width('a') == 1);
    CHECK(cell_width(0x65E5) == 2);  // CJK
    CHECK(cell_width(0x3400) == 2);  // CJK extension A
    CHECK(cell_width(0xFF21) == 2);  // fullwidth A
    CHECK(cell_width(0x1F600) == 2); // emoji presentation
    CHECK(cell_width(0x2764) == 1);  // text-default emoji
    CHECK(cell_width(0x0301) == 0);  // combining mark
    CHECK(cell_width(0x1161) == 0);  // conjoining jamo vowel
    CHECK(cell_width(0x200B) == 0);
    CHECK(cell_width(0x2713) == 1);
  }

  TEST_CASE("variation bases")
  {
    CHECK(may_vary(0x2764, 0xFE0F));
    CHECK(may_vary(0x0030, 0xFE0F)); // keycap digit
    CHECK(may_vary(0x0030, 0xFE00)); // standardized: digit zero with a slash
    CHECK(may_vary(0x8FBB, 0xE0100));
    CHECK(may_vary(0x1820, 0x180B)); // Mongolian
    CHECK_FALSE(may_vary('a', 0xFE0F));
    CHECK_FALSE(may_vary(0x2764, 0xE0100));
    CHECK_FALSE(may_vary(0x8FBB, 'a'));
    CHECK(is_pictographic(0x1F468));
    CHECK(is_pictographic(0x1F3FB)); // skin tone modifier
    CHECK_FALSE(is_pictographic('1'));
  }

  TEST_CASE("folds for tag matching")
  {
    CHECK(fold_for_tags('S') == "s");
    CHECK(fold_for_tags('<') == "<");
    CHECK(fold_for_tags('!') == "*");
    CHECK(fold_for_tags(' ') == "");
    CHECK(fold_for_tags(0xFF1C) == "<");  // fullwidth
    CHECK(fold_for_tags(0xFE65) == ">");  // small form
    CHECK(fold_for_tags(0xFF33) == "s");  // fullwidth S
    CHECK(fold_for_tags(0x1D42C) == "s"); // mathematical bold small s
    CHECK(fold_for_tags(0x24E2) == "s");  // circled small s
    CHECK(fold_for_tags(0x2014) == "-");  // em dash
    CHECK(fold_for_tags(0x3008) == "<");
    CHECK(fold_for_tags(0x0455) == "s");   // Cyrillic dze: the look-alike table
    CHECK(fold_for_tags(0x0405) == "s");   // its capital, by case folding first
    CHECK(fold_for_tags(0x03A4) == "t");   // Greek capital tau
    CHECK(fold_for_tags(0xFB06) == "st");  // ligature st
    CHECK(fold_for_tags(0x33CC) == "in");  // square in
    CHECK(fold_for_tags(0x015B) == "s");   // s with acute: decomposed, the mark removed
    CHECK(fold_for_tags(0x0130) == "i");   // case folds to i + U+0307
    CHECK(fold_for_tags(0x1E9E) == "ss");  // capital sharp s, full case folding
    CHECK(fold_for_tags(0x00BD) == "*/*"); // one half: 1, fraction slash, 2
    CHECK(fold_for_tags(0x00A8) == "");    // diaeresis: a space and a mark
    CHECK(fold_for_tags(0x200B) == "");    // hidden
    CHECK(fold_for_tags(0x0301) == "");    // combining mark
    CHECK(fold_for_tags(0x65E5) == "*");
    CHECK(fold_for_tags(0x0419) == "*");  // Cyrillic short i: i with a breve, not a look-alike
    CHECK(fold_for_tags(0x10FFFF) == ""); // noncharacter
  }
}
