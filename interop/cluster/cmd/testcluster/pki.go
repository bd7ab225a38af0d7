package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki holds the files of the cluster's certificate authority and keys.
type pki struct {
	caCert, caKey              string // CA certificate and key (PEM files)
	serverCert, serverKey      string // kube-apiserver serving certificate
	adminCert, adminKey        string // client certificate, O=system:masters
	saKey, saPub               string // service-account signing key pair
	caPEM, adminPEM, adminKPEM []byte
}

func writePEM(path, typ string, der []byte, mode os.FileMode) ([]byte, error) {
	data := pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
	return data, os.WriteFile(path, data, mode)
}

var serial int64 = time.Now().UnixNano()

func signCert(tmpl *x509.Certificate, parent *x509.Certificate, parentKey *rsa.PrivateKey) (*x509.Certificate, *rsa.PrivateKey, []byte, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, nil, err
	}
	serial++
	tmpl.SerialNumber = big.NewInt(serial)
	tmpl.NotBefore = time.Now().Add(-time.Hour)
	tmpl.NotAfter = time.Now().Add(10 * 365 * 24 * time.Hour)
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		return nil, nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return cert, key, der, err
}

// makePKI writes a fresh CA, the apiserver's serving certificate, an admin
// client certificate and the service-account key pair into dir.
func makePKI(dir string) (*pki, error) {
	p := &pki{
		caCert: filepath.Join(dir, "ca.crt"), caKey: filepath.Join(dir, "ca.key"),
		serverCert: filepath.Join(dir, "apiserver.crt"), serverKey: filepath.Join(dir, "apiserver.key"),
		adminCert: filepath.Join(dir, "admin.crt"), adminKey: filepath.Join(dir, "admin.key"),
		saKey: filepath.Join(dir, "sa.key"), saPub: filepath.Join(dir, "sa.pub"),
	}
	ca, caKey, caDER, err := signCert(&x509.Certificate{
		Subject:               pkix.Name{CommonName: "dra-testcluster-ca"},
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
	}, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("CA: %w", err)
	}
	if p.caPEM, err = writePEM(p.caCert, "CERTIFICATE", caDER, 0o644); err != nil {
		return nil, err
	}
	if _, err = writePEM(p.caKey, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(caKey), 0o600); err != nil {
		return nil, err
	}

	_, key, der, err := signCert(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "kube-apiserver"},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")},
		DNSNames:    []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
	}, ca, caKey)
	if err != nil {
		return nil, fmt.Errorf("serving certificate: %w", err)
	}
	if _, err = writePEM(p.serverCert, "CERTIFICATE", der, 0o644); err != nil {
		return nil, err
	}
	if _, err = writePEM(p.serverKey, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(key), 0o600); err != nil {
		return nil, err
	}

	_, key, der, err = signCert(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "admin", Organization: []string{"system:masters"}},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, ca, caKey)
	if err != nil {
		return nil, fmt.Errorf("admin certificate: %w", err)
	}
	if p.adminPEM, err = writePEM(p.adminCert, "CERTIFICATE", der, 0o644); err != nil {
		return nil, err
	}
	if p.adminKPEM, err = writePEM(p.adminKey, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(key), 0o600); err != nil {
		return nil, err
	}

	saKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	if _, err = writePEM(p.saKey, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(saKey), 0o600); err != nil {
		return nil, err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return nil, err
	}
	if _, err = writePEM(p.saPub, "PUBLIC KEY", pubDER, 0o644); err != nil {
		return nil, err
	}
	return p, nil
}

// randomToken returns 32 hex characters from crypto/rand.
func randomToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return fmt.Sprintf("%x", b)
}

func b64(data []byte) string { return base64.StdEncoding.EncodeToString(data) }
