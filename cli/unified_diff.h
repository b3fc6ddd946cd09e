// A unified diff (as `diff -u` prints it) between two texts, line by line.
#pragma once

#include <string>
#include <string_view>

namespace dsls::cli {

// Empty when the texts are equal. Lines keep their terminators; a last line without one is
// followed by "\ No newline at end of file", as in git.
std::string unifiedDiff(std::string_view before, std::string_view after, const std::string& oldName,
                        const std::string& newName, std::size_t context = 3);

}  // namespace dsls::cli
