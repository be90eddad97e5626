"""
Interop client of the typed v2 contract: python3-suds builds its proxy from the served v2 ?wsdl and
calls main-service operations over the SOAP 1.1 port, deserialising the typed results itself (suds
speaks SOAP 1.1 only: on the WSDL's SOAP 1.2 port it still sends a SOAP 1.1 envelope). Prints one JSON array on stdout: {"port", "operation", "args", "ok",
"result" | "fault": {"code", "message", "detail": {"Code", "Field", "Message"}}}.

usage: python3 suds_v2_client.py <service-url-prefix> <calls>
  <service-url-prefix>  e.g. http://127.0.0.1:8080/API/v2
  <calls>               JSON [{"operation": "getPCNList", "args": {"Customer": "C001"}}, ...]

Results are suds' own objects turned into plain data: decimals as their text, dates and timestamps
in ISO form, None for nil.
"""
import datetime
import decimal
import json
import sys

from suds import WebFault
from suds.client import Client
from suds.sudsobject import Object, items

MAIN = "MobileAppWebService"


def plain(value):
    if isinstance(value, Object):
        return {key: plain(item) for key, item in items(value)}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


def fault_of(error):
    fault = error.fault
    code = getattr(fault, "faultcode", None)
    if code is None:
        code = fault.Code.Value
    detail = getattr(fault, "detail", None) or getattr(fault, "Detail", None)
    error_detail = getattr(detail, "ServiceError", None) if detail is not None else None
    return {"code": str(code), "message": str(getattr(fault, "faultstring", "")), "detail": plain(error_detail)}


def main():
    prefix = sys.argv[1].rstrip("/")
    main_calls = json.loads(sys.argv[2])
    client = Client(f"{prefix}/{MAIN}.asmx?wsdl", cache=None)
    results = []
    for port in ("Soap",):
        client.set_options(port=MAIN + port)
        for entry in main_calls:
            name, args = entry["operation"], entry["args"]
            record = {"port": port, "operation": name, "args": args}
            try:
                record["result"] = plain(getattr(client.service, name)(**args))
                record["ok"] = True
            except WebFault as error:
                record["ok"] = False
                record["fault"] = fault_of(error)
            results.append(record)
    json.dump(results, sys.stdout, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
