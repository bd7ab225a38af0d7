{{/* The chart's name, truncated to the 63 characters of a label value. */}}
{{- define "dra-driver.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The release's full name, prefix of every object: the release name alone when
it already contains the chart's name.
*/}}
{{- define "dra-driver.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "dra-driver.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "dra-driver.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dra-driver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "dra-driver.labels" -}}
helm.sh/chart: {{ include "dra-driver.chart" . }}
{{ include "dra-driver.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "dra-driver.serviceAccountName" -}}
{{- default (include "dra-driver.fullname" .) .Values.serviceAccount.name }}
{{- end }}

{{/* The controller's service account: its own, outside the admission policy. */}}
{{- define "dra-driver.controllerServiceAccountName" -}}
{{- printf "%s-controller" (include "dra-driver.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The Lease the controller's replicas elect their leader with. */}}
{{- define "dra-driver.controllerLeaseName" -}}
{{- include "dra-driver.controllerServiceAccountName" . }}
{{- end }}

{{/* dra serve's Deployment, Service and service account (read-only access). */}}
{{- define "dra-driver.serveName" -}}
{{- printf "%s-serve" (include "dra-driver.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Where the inventory ConfigMap is mounted, in the plugin and the controller. */}}
{{- define "dra-driver.inventoryPath" -}}
/etc/dra-driver/inventory.yaml
{{- end }}

{{/* The user name the API server gives the service account's tokens. */}}
{{- define "dra-driver.serviceAccountUser" -}}
{{- printf "system:serviceaccount:%s:%s" .Release.Namespace (include "dra-driver.serviceAccountName" .) }}
{{- end }}

{{- define "dra-driver.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* Refuses values that would render a driver that cannot start. */}}
{{- define "dra-driver.validate" -}}
{{- if not (has .Values.driver (list "example" "nvml")) }}
{{- fail (printf "driver must be \"example\" or \"nvml\", not %q" .Values.driver) }}
{{- end }}
{{- if and .Values.controller.enabled (ne .Values.driver "example") }}
{{- fail "controller.enabled: the controller runs the example driver; set driver=example" }}
{{- end }}
{{- if and .Values.controller.enabled (not .Values.controller.inventorySlices) }}
{{- fail "controller.enabled needs controller.inventorySlices: the ResourceSlices of the network-attached pools" }}
{{- end }}
{{- if and .Values.serve.enabled (not (and (ge (int .Values.serve.port) 1) (le (int .Values.serve.port) 65535))) }}
{{- fail (printf "serve.port must be a port number (1-65535), not %v" .Values.serve.port) }}
{{- end }}
{{- if and .Values.deviceStatus (ne .Values.driver "example") }}
{{- fail "deviceStatus (--gpu-device-status) is a flag of the example driver only" }}
{{- end }}
{{- end }}
