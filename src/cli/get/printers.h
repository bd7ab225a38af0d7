// Printing `dra get` rows: kubectl-style tables (-o wide adds columns) and
// the DeviceList / PoolList / ClaimList documents of -o json and -o yaml
// (schema in docs/GET.md).
#pragma once

#include <string>
#include <vector>

#include "cli/get/claim_rows.h"
#include "cli/get/device_rows.h"
#include "cli/get/pool_rows.h"
#include "dra/json/value.h"

namespace dra::cli::get {

inline constexpr const char* kListApiVersion = "dra.local/v1alpha1";

// Columns padded to their widest cell and separated by three spaces, as
// kubectl's printer; the first row is the header. No trailing blanks. Each
// line ends with "\n".
std::string FormatTable(const std::vector<std::vector<std::string>>& rows);

std::string DeviceTable(const std::vector<DeviceRow>& rows, bool wide);
std::string PoolTable(const std::vector<PoolRow>& rows, bool wide);
// The NAMESPACE column appears with --all-namespaces, as in kubectl.
std::string ClaimTable(const std::vector<ClaimRow>& rows, bool wide, bool all_namespaces);

json::Value DeviceListJson(const std::vector<DeviceRow>& rows);
json::Value PoolListJson(const std::vector<PoolRow>& rows);
json::Value ClaimListJson(const std::vector<ClaimRow>& rows);

// Device columns also used by the JSON: the attributes of the table (key
// attributes by default, see IsKeyAttribute; all with `all`), "<none>" when
// empty.
bool IsKeyAttribute(const std::string& name);
std::string AttributeValueText(const api::DeviceAttribute& a);

}  // namespace dra::cli::get
