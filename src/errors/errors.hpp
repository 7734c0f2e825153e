// Typed errors. Every failure that reaches the user names what went wrong, where, and on which
// host and rank, so a message from rank 7 of a Slurm job can be traced without a debugger.
#pragma once

#include <stdexcept>
#include <string>

namespace gb {

// Base of all gpubarrier errors.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input from the user (flags, files, axes): the CLI exits with code 2.
class UsageError : public Error {
 public:
  using Error::Error;
};

// Malformed input file: carries "file:line[:column]: what was expected".
class ParseError : public UsageError {
 public:
  ParseError(const std::string& source, int line, int column, const std::string& what);
  const std::string& source() const { return source_; }
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  std::string source_;
  int line_;
  int column_;
};

// A failed call into CUDA, NCCL, MPI or NVML.
class ApiError : public Error {
 public:
  ApiError(const std::string& api, const std::string& call, const std::string& detail,
           const char* file, int line);
};

// "host rank N" (or "host" outside MPI); set once MPI is initialised.
std::string process_label();
void set_process_rank(int rank, int size);

}  // namespace gb
