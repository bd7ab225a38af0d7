// Command kubelet-client drives a DRA driver the way the kubelet does, with
// the kubelet's own generated gRPC clients (k8s.io/kubelet): it finds the
// driver's registration socket in the plugin registry directory, asks for
// its PluginInfo and acknowledges the registration, then connects to the DRA
// endpoint it advertised and prepares and unprepares claims through the
// DRAPlugin v1 service (v1beta1 when asked). It prints one JSON object with
// what it saw, for tests to check.
//
//	kubelet-client --registry DIR --claim NAMESPACE/NAME/UID... [--api v1|v1beta1]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	drav1 "k8s.io/kubelet/pkg/apis/dra/v1"
	drav1beta1 "k8s.io/kubelet/pkg/apis/dra/v1beta1"
	registration "k8s.io/kubelet/pkg/apis/pluginregistration/v1"
)

type claimList []string

func (c *claimList) String() string     { return strings.Join(*c, ",") }
func (c *claimList) Set(v string) error { *c = append(*c, v); return nil }

// The kubelet's deadline for every DRA call.
const callTimeout = 45 * time.Second

type claimOutcome struct {
	UID     string   `json:"uid"`
	Error   string   `json:"error,omitempty"`
	Devices []string `json:"devices,omitempty"` // pool/device: CDI IDs
}

type report struct {
	Type              string         `json:"type"`
	Name              string         `json:"name"`
	Endpoint          string         `json:"endpoint"`
	SupportedVersions []string       `json:"supportedVersions"`
	API               string         `json:"api"`
	Prepared          []claimOutcome `json:"prepared"`
	Unprepared        []claimOutcome `json:"unprepared"`
}

func main() {
	registry := flag.String("registry", "", "the kubelet's plugin registry directory (registration sockets)")
	api := flag.String("api", "v1", "DRAPlugin version to call: v1 or v1beta1")
	var claims claimList
	flag.Var(&claims, "claim", "NAMESPACE/NAME/UID of a claim to prepare and unprepare (repeatable)")
	flag.Parse()
	if err := run(*registry, *api, claims); err != nil {
		fmt.Fprintln(os.Stderr, "kubelet-client:", err)
		os.Exit(1)
	}
}

func dial(path string) (*grpc.ClientConn, error) {
	return grpc.NewClient("unix:"+path, grpc.WithTransportCredentials(insecure.NewCredentials()))
}

func run(registry, api string, claims claimList) error {
	if registry == "" {
		return fmt.Errorf("--registry is required")
	}
	sockets, err := filepath.Glob(filepath.Join(registry, "*.sock"))
	if err != nil || len(sockets) != 1 {
		return fmt.Errorf("expected one registration socket in %s, found %v", registry, sockets)
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()

	conn, err := dial(sockets[0])
	if err != nil {
		return err
	}
	defer conn.Close()
	reg := registration.NewRegistrationClient(conn)
	info, err := reg.GetInfo(ctx, &registration.InfoRequest{})
	if err != nil {
		return fmt.Errorf("GetInfo: %w", err)
	}
	out := report{Type: info.Type, Name: info.Name, Endpoint: info.Endpoint,
		SupportedVersions: info.SupportedVersions, API: api}
	if info.Type != registration.DRAPlugin {
		return fmt.Errorf("plugin type %q, want %q", info.Type, registration.DRAPlugin)
	}
	if _, err := reg.NotifyRegistrationStatus(ctx, &registration.RegistrationStatus{PluginRegistered: true}); err != nil {
		return fmt.Errorf("NotifyRegistrationStatus: %w", err)
	}

	dra, err := dial(info.Endpoint)
	if err != nil {
		return err
	}
	defer dra.Close()
	var refs []*drav1.Claim
	for _, c := range claims {
		parts := strings.Split(c, "/")
		if len(parts) != 3 {
			return fmt.Errorf("--claim %q: want NAMESPACE/NAME/UID", c)
		}
		refs = append(refs, &drav1.Claim{Namespace: parts[0], Name: parts[1], Uid: parts[2]})
	}
	switch api {
	case "v1":
		client := drav1.NewDRAPluginClient(dra)
		prep, err := client.NodePrepareResources(ctx, &drav1.NodePrepareResourcesRequest{Claims: refs})
		if err != nil {
			return fmt.Errorf("NodePrepareResources: %w", err)
		}
		for uid, r := range prep.Claims {
			o := claimOutcome{UID: uid, Error: r.Error}
			for _, d := range r.Devices {
				o.Devices = append(o.Devices, d.PoolName+"/"+d.DeviceName+": "+strings.Join(d.CdiDeviceIds, ","))
			}
			out.Prepared = append(out.Prepared, o)
		}
		unprep, err := client.NodeUnprepareResources(ctx, &drav1.NodeUnprepareResourcesRequest{Claims: refs})
		if err != nil {
			return fmt.Errorf("NodeUnprepareResources: %w", err)
		}
		for uid, r := range unprep.Claims {
			out.Unprepared = append(out.Unprepared, claimOutcome{UID: uid, Error: r.Error})
		}
	case "v1beta1":
		var beta []*drav1beta1.Claim
		for _, r := range refs {
			beta = append(beta, &drav1beta1.Claim{Namespace: r.Namespace, Name: r.Name, Uid: r.Uid})
		}
		client := drav1beta1.NewDRAPluginClient(dra)
		prep, err := client.NodePrepareResources(ctx, &drav1beta1.NodePrepareResourcesRequest{Claims: beta})
		if err != nil {
			return fmt.Errorf("NodePrepareResources: %w", err)
		}
		for uid, r := range prep.Claims {
			o := claimOutcome{UID: uid, Error: r.Error}
			for _, d := range r.Devices {
				o.Devices = append(o.Devices, d.PoolName+"/"+d.DeviceName+": "+strings.Join(d.CdiDeviceIds, ","))
			}
			out.Prepared = append(out.Prepared, o)
		}
		unprep, err := client.NodeUnprepareResources(ctx, &drav1beta1.NodeUnprepareResourcesRequest{Claims: beta})
		if err != nil {
			return fmt.Errorf("NodeUnprepareResources: %w", err)
		}
		for uid, r := range unprep.Claims {
			out.Unprepared = append(out.Unprepared, claimOutcome{UID: uid, Error: r.Error})
		}
	default:
		return fmt.Errorf("--api %q: want v1 or v1beta1", api)
	}
	sort.Slice(out.Prepared, func(i, j int) bool { return out.Prepared[i].UID < out.Prepared[j].UID })
	sort.Slice(out.Unprepared, func(i, j int) bool { return out.Unprepared[i].UID < out.Unprepared[j].UID })
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
