// file:// URIs <-> filesystem paths (RFC 8089 subset, percent-encoding as VS Code writes it).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dsls::protocol {

// The path of a file: URI, or nullopt for other schemes (untitled:, vscode-notebook-cell:, ...).
std::optional<std::string> uriToPath(std::string_view uri);
std::string pathToUri(std::string_view absolutePath);
// The last path segment of a URI, decoded ("ds_config.json"); works for any scheme.
std::string uriFileName(std::string_view uri);

}  // namespace dsls::protocol
