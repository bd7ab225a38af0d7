// Helpers shared by the configuration sources of the kube layer (kubeconfig,
// in-cluster, token files, exec plugins): bounded file reads with Go's error
// wording, Go's path cleaning and standard base64.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "dra/kube/kubeconfig.h"
#include "dra/util/result.h"
#include "dra/util/system_error.h"

namespace dra::kube::internal {

// strerror(err) worded as Go's syscall.Errno prints it ("no such file or
// directory", "permission denied").
std::string ErrnoText(int err);

// The whole file, as Go's os.ReadFile reports failures ("open <path>: <errno>",
// "read <path>: is a directory"); a file over `max_bytes` is
// "read <path>: file is larger than <max_bytes> bytes".
Result<std::string> ReadFileBounded(const std::string& path, std::size_t max_bytes);

// Go's os.Stat failure text ("stat <path>: no such file or directory"), or ""
// when the path exists. `exists` is false only for ENOENT/ENOTDIR.
std::string StatError(const std::string& path, bool* exists, bool* is_dir = nullptr);

// Go's filepath.Clean.
std::string CleanPath(std::string_view path);
// Go's filepath.Dir (cleaned).
std::string DirName(std::string_view path);
// Go's filepath.Abs: joined with the working directory when relative, cleaned.
std::string AbsPath(std::string_view path);
// Go's filepath.Join of two elements.
std::string JoinPath(std::string_view base, std::string_view rel);

// Go's base64.StdEncoding.DecodeString (padding required; '\r' and '\n' are
// skipped). Error: "illegal base64 data at input byte N".
Result<std::string> DecodeBase64(std::string_view text);
std::string EncodeBase64(std::string_view bytes);

// Leading and trailing Unicode-ASCII whitespace removed, as strings.TrimSpace
// does for ASCII.
std::string_view TrimSpace(std::string_view s);

// The files kubectl would read, in precedence order: --kubeconfig alone, else
// $KUBECONFIG split on ':' (duplicates and empty entries dropped), else
// $HOME/.kube/config.
std::vector<std::string> KubeconfigPrecedence(const ConfigFlags& flags, const Environment& env);

// Loads and merges the files of KubeconfigPrecedence as client-go's loading
// rules do; the error is kubectl's printed text (see LoadRestConfig).
Result<Kubeconfig> LoadMergedKubeconfig(const ConfigFlags& flags, const Environment& env);

}  // namespace dra::kube::internal
