// JSON-RPC 2.0 message classification and construction.
#pragma once

#include "protocol/lifted_strings.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace dsls::protocol {

using Json = nlohmann::json;

enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
  RequestCancelled = -32800,
  ContentModified = -32801,
};

// Bodies nested deeper than this are refused before parsing so no parser or
// destructor ever recurses through them.
inline constexpr int kMaxNestingDepth = 256;

struct Incoming {
  enum class Kind { Request, Notification, Response, Invalid };
  Kind kind = Kind::Invalid;
  Json id;  // null when absent
  std::string method;
  Json params;  // null when absent
  Json result;  // responses
  Json error;   // responses
  // For Invalid: which error to answer with and why.
  ErrorCode errorCode = ErrorCode::InvalidRequest;
  std::string errorMessage;
};

// Parses and classifies one message body. Never throws.
Incoming parseMessage(std::string_view body);
// The same for a body the caller gives up: string values of `liftBytes` or more (a document's
// text) are decoded in the body's own buffer, so the largest is never held twice.
Incoming parseOwnedMessage(std::string&& body, std::size_t liftBytes = kLiftedStringBytes);

Json makeResponse(const Json& id, Json result);
Json makeError(const Json& id, ErrorCode code, std::string_view message);
Json makeNotification(std::string_view method, Json params);
Json makeRequest(const Json& id, std::string_view method, Json params);

// Deepest bracket nesting of a JSON text, counting only outside strings; stops counting at `limit`.
int nestingDepth(std::string_view text, int limit);

}  // namespace dsls::protocol
