// Which ErrorCode a failed gRPC call is, for the driver's calls to the
// kubelet's sockets (registration, DRA service, liveness).
#pragma once

#include <grpcpp/support/status.h>

#include "dra/util/result.h"

namespace dra::driver {

constexpr ErrorCode GrpcErrorCode(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::OUT_OF_RANGE:
    case grpc::StatusCode::UNIMPLEMENTED:
      return ErrorCode::kInvalidInput;
    case grpc::StatusCode::NOT_FOUND:
      return ErrorCode::kNotFound;
    case grpc::StatusCode::ALREADY_EXISTS:
      return ErrorCode::kAlreadyExists;
    case grpc::StatusCode::ABORTED:
    case grpc::StatusCode::FAILED_PRECONDITION:
      return ErrorCode::kConflict;
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return ErrorCode::kUnavailable;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return ErrorCode::kDeadlineExceeded;
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::UNAUTHENTICATED:
      return ErrorCode::kPermissionDenied;
    case grpc::StatusCode::CANCELLED:
      return ErrorCode::kCancelled;
    default:
      return ErrorCode::kInternal;
  }
}

}  // namespace dra::driver
