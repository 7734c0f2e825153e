// What an isolated child (`--isolate`) tells its parent, one JSON object per line on a pipe:
//
//   {"begin": RECORD}       a point starts (RECORD: its identity, see core/runner.hpp)
//   {"record": RECORD}      one of its records, complete and lossless (doubles round-trip)
//   {"end": "ok"}           the point is done, with its outcome
//   {"exit": {"more": B}}   the child stops; B: points remain that it left to a new child
//
// A parent that sees the pipe close after "begin" without "end" knows which point crashed.
#pragma once

#include <string>
#include <string_view>

#include "core/record.hpp"
#include "core/result_sink.hpp"

namespace gb {

struct PointMessage {
  enum class Kind { begin, record, end, exit };
  Kind kind = Kind::record;
  Record record;               // begin, record
  Status status = Status::ok;  // end
  bool more = false;           // exit
};

std::string encode_begin(const Record& point);
std::string encode_record(const Record& record);
std::string encode_end(Status outcome);
std::string encode_exit(bool more);

// Throws gb::Error naming what is malformed.
PointMessage decode_point_message(std::string_view line);

// The child's sink: every record goes down the pipe as it is produced.
class PointStreamWriter : public ResultSink {
 public:
  explicit PointStreamWriter(int fd) : fd_(fd) {}
  void write(const Record& record) override { send(encode_record(record)); }
  void send(const std::string& line);  // one message; throws gb::Error when the pipe is gone

 private:
  int fd_;
};

}  // namespace gb
