-- wrk script: one SOAP 1.1 call (getCollectionStatements for one officer and one month).
-- scripts/bench.sh names the officer in BENCH_OFFICER.
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/xml; charset=utf-8"
wrk.headers["SOAPAction"] = '"http://tempuri.org/getCollectionStatements"'
wrk.body = [[<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<getCollectionStatements xmlns="http://tempuri.org/"><SalesOfficer>]] .. os.getenv("BENCH_OFFICER") .. [[</SalesOfficer><FromDate>01/10/2026</FromDate><ToDate>31/10/2026</ToDate></getCollectionStatements>
</soap:Body></soap:Envelope>]]
