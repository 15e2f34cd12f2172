#pragma once
/// @file Small text helpers the card-game consoles share: trimming, lower case, the first word
/// of a line, comma lists and whole numbers.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace duels::cards::text {

/// `s` without the white space at either end.
std::string_view trim(std::string_view s);
/// `s` in lower case (ASCII).
std::string lower(std::string_view s);
/// The same name in any case (ASCII): "sam" is "Sam".
bool same_name(std::string_view a, std::string_view b);
/// Splits "word rest of line" into the first word in lower case and the trimmed rest; with
/// `stop_at_semicolon` the word also ends at a ';'.
std::pair<std::string, std::string> head_rest(std::string_view line,
                                              bool stop_at_semicolon = false);
/// The trimmed, non-empty pieces of `text` between the separators.
std::vector<std::string> split_list(std::string_view text, char sep);
/// A whole number of at most six characters, with an optional leading '+'; false if `s` is not
/// one (then `out` is unspecified).
bool to_int(std::string_view s, int& out);
/// "A -> B": the two sides, trimmed, or nullopt when there is no "->".
std::optional<std::pair<std::string, std::string>> arrow(std::string_view text);
/// The lines of `after` that `before` does not have (each line of `before` matches at most one
/// line of `after`), in `after`'s order: what a command changed in a state's rendering.
std::string changed_lines(std::string_view before, std::string_view after);

}  // namespace duels::cards::text
