// Training metrics read without regexes (they are on most lines of a healthy
// log): HF Trainer dicts `{'loss': 0.0, 'grad_norm': nan, ...}`, `loss = ...`,
// and DeepSpeed's progress line `step=10, skipped=6`. These lines are printed by
// rank 0 only, so they never name the rank that caused a problem.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "analysis/logs/analyzer_ops.h"
#include "analysis/logs/lines/line_literals.h"
#include "analysis/logs/lines/literal_prefilter.h"
#include "analysis/logs/lines/metrics_scan.h"
#include "analysis/logs/lines/text_util.h"

namespace dsls::logs::detail {
namespace {

enum class ValueKind { Finite, NaN, Inf };

struct MetricValue {
  ValueKind kind = ValueKind::Finite;
  bool zero = false;  // a finite value equal to 0
  std::string_view token;
  bool plain = false;  // a decimal without exponent: read the same whatever its digits
};

// A decimal without exponent ("2.0420", "-0.5", "3.", ".5"), read from `q` on in two tight
// loops: its digits and at most one '.'. `q` is left after the last byte read.
struct PlainDecimal {
  bool digit = false;  // false: no digit, not a decimal
  bool zero = true;    // every digit is 0
};

PlainDecimal readPlainDecimal(const char*& q, const char* end) {
  if (q < end && *q == '-') ++q;
  unsigned nonZero = 0;
  const char* const whole = q;
  while (q < end && text::isDigit(*q)) nonZero |= static_cast<unsigned>(*q++ - '0');
  bool digit = q != whole;
  if (q < end && *q == '.') {
    const char* const fraction = ++q;
    while (q < end && text::isDigit(*q)) nonZero |= static_cast<unsigned>(*q++ - '0');
    digit |= q != fraction;
  }
  return {digit, nonZero == 0};
}

// A decimal without exponent, as from_chars reads it; nullopt when the token is not of that
// shape. Its value is only tested for zero: no conversion needed.
std::optional<bool> plainDecimalIsZero(std::string_view u) {
  if (u.empty() || u.size() > 40) return std::nullopt;
  const char* q = u.data();
  const PlainDecimal d = readPlainDecimal(q, u.data() + u.size());
  if (!d.digit || q != u.data() + u.size()) return std::nullopt;
  return d.zero;
}

std::optional<MetricValue> classify(std::string_view token) {
  if (token.empty()) return std::nullopt;
  // The common case first: a plain decimal is neither a NaN nor an infinity.
  const std::string_view number = token.substr(token[0] == '+' ? 1 : 0);
  if (const auto zero = plainDecimalIsZero(number)) return MetricValue{ValueKind::Finite, *zero, token, true};
  std::string_view t = token;
  if (t[0] == '-' || t[0] == '+') t.remove_prefix(1);
  if (t == "nan" || t == "NaN" || t == "NAN") return MetricValue{ValueKind::NaN, false, token};
  if (t == "inf" || t == "Inf" || t == "INF" || t == "Infinity" || t == "infinity")
    return MetricValue{ValueKind::Inf, false, token};
  double v = 0;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec != std::errc() || ptr != number.data() + number.size()) return std::nullopt;
  return MetricValue{ValueKind::Finite, v == 0.0, token};
}

// The bytes a value is read over: word characters, '.', '-' and '+'.
constexpr std::array<bool, 256> kValueByte = [] {
  std::array<bool, 256> t{};
  for (unsigned c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    t[c] = text::isWordChar(ch) || ch == '.' || ch == '-' || ch == '+';
  }
  return t;
}();

// The value that starts at `p`. A plain decimal (the common case) is classified as it is
// read, as classify() would; any other token is read whole first.
std::optional<MetricValue> valueAt(std::string_view msg, std::size_t p) {
  const char* const begin = msg.data() + p;
  const char* const end = msg.data() + msg.size();
  const char* q = begin;
  if (q < end && *q == '+') ++q;
  const char* const number = q;  // plainDecimalIsZero's text: without a leading '+'
  const PlainDecimal d = readPlainDecimal(q, end);
  if (d.digit && (q == end || !kValueByte[static_cast<unsigned char>(*q)]) && q - number <= 40)
    return MetricValue{ValueKind::Finite, d.zero, std::string_view(begin, static_cast<std::size_t>(q - begin)), true};
  while (q < end && kValueByte[static_cast<unsigned char>(*q)]) ++q;
  return classify(std::string_view(begin, static_cast<std::size_t>(q - begin)));
}

// The metric names: the line's scan finds the first of each; a later one is found by its
// rarest byte.
const RareByteLiteral kLoss(lineLiteralText(LineLiteral::Loss));
const RareByteLiteral kGradNorm(lineLiteralText(LineLiteral::GradNorm));
const RareByteLiteral kGradNormSpaced(lineLiteralText(LineLiteral::GradNormSpaced));

// Whether the token at `p` holds a digit: refused there ("1e999" is out of range), a token
// of other digits might not be ("0e000").
bool digitInToken(std::string_view msg, std::size_t p) {
  for (; p < msg.size() && kValueByte[static_cast<unsigned char>(msg[p])]; ++p)
    if (text::isDigit(msg[p])) return true;
  return false;
}

// Value of the first `name`, found at or after `at`, that is followed by ':' or '=' (quotes
// allowed), with a word boundary before it ("eval_loss" does not count as "loss").
// `refusedDigits` is set when a token with a digit was passed over for not being a value.
std::optional<MetricValue> metricValue(std::string_view msg, const RareByteLiteral& name, std::size_t at,
                                       bool& refusedDigits) {
  for (; at != std::string_view::npos; at = name.find(msg, at + 1)) {
    if (at > 0 && text::isWordChar(msg[at - 1])) continue;
    std::size_t p = at + name.size();
    if (p < msg.size() && (msg[p] == '\'' || msg[p] == '"')) ++p;
    while (p < msg.size() && msg[p] == ' ') ++p;
    if (p >= msg.size() || (msg[p] != ':' && msg[p] != '=')) continue;
    ++p;
    while (p < msg.size() && msg[p] == ' ') ++p;
    if (p < msg.size() && (msg[p] == '\'' || msg[p] == '"')) ++p;
    if (auto v = valueAt(msg, p)) return v;
    refusedDigits = refusedDigits || digitInToken(msg, p);
  }
  return std::nullopt;
}

// A run of consecutive metric lines with one suspicious value; reported once it reaches
// `needed` lines, with its first lines as evidence.
void extendRun(State& s, MetricRun& run, const LineContext& c, FailureId failure, std::size_t needed) {
  ++run.length;
  const Occurrence occ = occurrenceOf(c, false);
  if (!run.reported && run.length < needed) {
    run.pending.push_back(fullEvidence(occ));
    return;
  }
  if (!run.reported) {
    for (const Evidence& e : run.pending) {
      Occurrence earlier = occ;
      earlier.evidence = e;
      earlier.textOf = nullptr;
      record(s, failure, earlier);
    }
    run.pending.clear();
    run.reported = true;
  }
  record(s, failure, occ);
}

void resetRun(MetricRun& run) {
  run.length = 0;
  run.pending.clear();
  run.reported = false;
  run.nanNorm = run.sameNorm = true;
  run.normToken.clear();
}

// A zero loss: how its grad_norm (when the line has one) corroborates the run.
std::size_t zeroLossNeeded(MetricRun& run, const std::optional<MetricValue>& norm) {
  if (!norm) run.nanNorm = run.sameNorm = false;
  else {
    run.nanNorm = run.nanNorm && norm->kind != ValueKind::Finite;
    if (run.length == 0) run.normToken.assign(norm->token);
    else run.sameNorm = run.sameNorm && norm->token == run.normToken;
  }
  return run.nanNorm || run.sameNorm ? limits::kStuckRunCorroborated : limits::kStuckRun;
}

// The loss and grad norm values of a message, read from where the line's scan found their names.
struct MetricValues {
  std::optional<MetricValue> loss, norm;
  bool refusedDigits = false;  // a token with a digit was refused: other digits might be read
};

MetricValues readValues(std::string_view msg, const LineLiteralHits& literals) {
  constexpr std::size_t npos = std::string_view::npos;
  const std::size_t lossAt = literals.first(LineLiteral::Loss);
  const std::size_t normAt = literals.first(LineLiteral::GradNorm);
  const std::size_t spacedAt = literals.first(LineLiteral::GradNormSpaced);
  MetricValues v;
  if (normAt != npos || spacedAt != npos) {
    v.norm = metricValue(msg, kGradNorm, normAt, v.refusedDigits);
    if (!v.norm) v.norm = metricValue(msg, kGradNormSpaced, spacedAt, v.refusedDigits);
  }
  if (lossAt != npos) v.loss = metricValue(msg, kLoss, lossAt, v.refusedDigits);
  return v;
}

// The values of a message of a shape laid out before: the same tokens at the same places.
std::optional<MetricValue> laidOut(std::string_view msg, const MetricLayout::Value& v) {
  if (!v.present) return std::nullopt;
  const std::string_view token = msg.substr(v.at, v.size);
  const bool zero = std::none_of(token.begin(), token.end(), [](char ch) { return ch >= '1' && ch <= '9'; });
  return MetricValue{ValueKind::Finite, zero, token, true};
}

std::optional<MetricLayout::Value> layoutOf(std::string_view msg, const std::optional<MetricValue>& v) {
  if (!v) return MetricLayout::Value{};
  if (!v->plain) return std::nullopt;
  const auto at = static_cast<std::size_t>(v->token.data() - msg.data());
  if (at + v->token.size() > UINT16_MAX) return std::nullopt;
  return MetricLayout::Value{true, static_cast<std::uint16_t>(at), static_cast<std::uint16_t>(v->token.size())};
}

// The values read through the layout of the message's shape, or read afresh (then laid out,
// when every value is a plain decimal).
MetricValues metricValues(NumericsState& n, std::string_view msg, const LineLiteralHits& literals) {
  const std::uint64_t shape = literals.shape();
  if (shape != 0)
    for (const MetricLayout& layout : n.layouts)
      if (layout.shape == shape) return {laidOut(msg, layout.loss), laidOut(msg, layout.norm)};
  MetricValues v = readValues(msg, literals);
  if (shape == 0 || v.refusedDigits) return v;
  const auto loss = layoutOf(msg, v.loss), norm = layoutOf(msg, v.norm);
  if (loss && norm) {
    n.layouts[n.nextLayout] = MetricLayout{shape, *loss, *norm};
    n.nextLayout = (n.nextLayout + 1) % n.layouts.size();
  }
  return v;
}

std::string describe(const std::optional<MetricValue>& v) {
  if (!v) return "-";
  return std::to_string(static_cast<int>(v->kind)) + "," + (v->zero ? "0" : "1") + "," + std::string(v->token);
}

}  // namespace

std::string describeMetricValues(NumericsState& n, std::string_view msg, const LineLiteralHits& literals) {
  const MetricValues v = metricValues(n, msg, literals);
  return "loss=" + describe(v.loss) + ";norm=" + describe(v.norm);
}

void scanMetrics(State& s, const LineContext& c, std::string_view msg, const LineLiteralHits& literals) {
  constexpr std::size_t npos = std::string_view::npos;
  if (literals.has(LineLiteral::Loss) || literals.has(LineLiteral::GradNorm) || literals.has(LineLiteral::GradNormSpaced)) {
    NumericsState& n = s.numerics;
    const MetricValues v = metricValues(n, msg, literals);
    const std::optional<MetricValue>& g = v.norm;
    if (g) {
      if (g->kind != ValueKind::Finite) record(s, FailureId::NanGradNorm, occurrenceOf(c, false));
      // The square root of 2 printed with full precision, repeated: not a real norm.
      if (g->kind == ValueKind::Finite && g->token.size() >= 10 && g->token.substr(0, 10) == "1.41421356")
        extendRun(s, n.sqrt2GradNorm, c, FailureId::GradNormStuck, limits::kStuckRun);
      else
        resetRun(n.sqrt2GradNorm);
    }
    if (const std::optional<MetricValue>& l = v.loss) {
      if (l->kind != ValueKind::Finite) record(s, FailureId::NanLoss, occurrenceOf(c, false));
      if (l->kind == ValueKind::Finite && l->zero)
        extendRun(s, n.zeroLoss, c, FailureId::LossStuckZero, zeroLossNeeded(n.zeroLoss, g));
      else
        resetRun(n.zeroLoss);
    }
    if (v.loss || v.norm) ++n.metricLines;
  }
  // DeepSpeed progress: "step=10, skipped=6, lr=..."
  const std::size_t skipped = literals.first(LineLiteral::Skipped);
  if (skipped != npos) {
    std::size_t p = skipped + lineLiteralText(LineLiteral::Skipped).size();
    const auto sk = text::parseIntAt(msg, p);
    const std::size_t step = msg.rfind("step=", skipped);
    if (sk && step != npos) {
      std::size_t q = step + 5;
      if (auto st = text::parseIntAt(msg, q)) {
        s.numerics.lastStep = *st;
        s.numerics.lastSkipped = *sk;
      }
    }
  }
}

}  // namespace dsls::logs::detail
