<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AgingSection</name>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="234"/>
        <source>Aging</source>
        <translation>账龄</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="236"/>
        <source>Aging report</source>
        <translation>账龄报表</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="234"/>
        <source>As of</source>
        <translation>截至</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="247"/>
        <source>Credit balance (unallocated)</source>
        <translation>预收余额（未核销）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="244"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="236"/>
        <source>E&amp;xport aging (PDF or XLSX)…</source>
        <translation>导出账龄表（PDF 或 XLSX）(&amp;X)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="240"/>
        <source>Monthly &amp;summary (PDF or XLSX)…</source>
        <translation>月度汇总（PDF 或 XLSX）(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="239"/>
        <source>Monthly receivables summary</source>
        <translation>应收账款月度汇总</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="239"/>
        <source>Period</source>
        <translation>账期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="234"/>
        <source>R&amp;efresh</source>
        <translation>刷新(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="252"/>
        <source>Save as</source>
        <translation>另存为</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="245"/>
        <source>Subsidiary</source>
        <translation>子公司</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="247"/>
        <source>Total</source>
        <translation>价税合计</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="262"/>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
</context>
<context>
    <name>AuditEventDialog</name>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="73"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="88"/>
        <source>After</source>
        <translation>变更后</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="80"/>
        <source>App version</source>
        <translation>程序版本</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="53"/>
        <source>Audit event %1</source>
        <translation>审计事件 %1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="88"/>
        <source>Before</source>
        <translation>变更前</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="101"/>
        <source>Changed fields: %1</source>
        <translation>变更字段：%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="107"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="88"/>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="82"/>
        <source>Hash</source>
        <translation>哈希</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="79"/>
        <source>Host</source>
        <translation>所在服务器</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="102"/>
        <source>No field values recorded with this event.</source>
        <translation>该事件未记录字段值。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="70"/>
        <source>No.</source>
        <translation>序号</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="76"/>
        <source>Object</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="111"/>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="77"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="83"/>
        <source>Previous hash</source>
        <translation>前一哈希</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="78"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="81"/>
        <source>Request id</source>
        <translation>请求 ID</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="71"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/kit/auditevent.py" line="72"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
</context>
<context>
    <name>AuditFilterBar</name>
    <message>
        <location filename="../../ui/pages/audit.py" line="181"/>
        <source>(every action)</source>
        <translation>（全部操作）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="183"/>
        <source>(every type)</source>
        <translation>（全部类型）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="178"/>
        <source>(everyone)</source>
        <translation>（全部用户）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="162"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="152"/>
        <source>An action, or a prefix ending in a dot (e.g. gpu.)</source>
        <translation>某个操作，或以点结尾的前缀（如 gpu.）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="158"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="161"/>
        <source>From</source>
        <translation>起始日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="163"/>
        <source>Object type</source>
        <translation>对象类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="161"/>
        <source>To</source>
        <translation>截止日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="162"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="113"/>
        <source>every %1 action</source>
        <translation>全部%1操作</translation>
    </message>
</context>
<context>
    <name>AuditFilterDialog</name>
    <message>
        <location filename="../../ui/pages/audit.py" line="55"/>
        <source>(every action)</source>
        <translation>（全部操作）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="61"/>
        <source>(every type)</source>
        <translation>（全部类型）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="48"/>
        <source>(everyone)</source>
        <translation>（全部用户）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="58"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="57"/>
        <source>An action (e.g. contract.approve) or a prefix ending in a dot (e.g. gpu.)</source>
        <translation>操作名（如 contract.approve）或以点结尾的前缀（如 gpu.）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="79"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="43"/>
        <source>From</source>
        <translation>起始日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="64"/>
        <source>Object type</source>
        <translation>对象类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="88"/>
        <source>The period ends before it starts.</source>
        <translation>结束日期早于开始日期。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="44"/>
        <source>To</source>
        <translation>截止日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="51"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
</context>
<context>
    <name>AuditPage</name>
    <message>
        <location filename="../../ui/pages/audit.py" line="383"/>
        <source>%1 audit events (%2) written to %3.</source>
        <translation>已将 %1 条审计事件（%2）写入 %3。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="319"/>
        <source>(last good event %1)</source>
        <translation>（最后一条完好事件 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="338"/>
        <source>Audit report</source>
        <translation>审计报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="347"/>
        <source>Audit report %1</source>
        <translation>审计报告 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="235"/>
        <source>Audit report PDF…</source>
        <translation>审计报告 PDF…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="356"/>
        <source>CSV (*.csv);;Excel (*.xlsx)</source>
        <translation>CSV (*.csv);;Excel (*.xlsx)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="317"/>
        <source>Chain BROKEN: %1</source>
        <translation>审计链已损坏：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="314"/>
        <source>Chain intact: %1 events; head %2</source>
        <translation>审计链完好：%1 条事件；链头 %2</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="251"/>
        <source>Copy SEQ:HASH</source>
        <translation>复制 SEQ:HASH</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="238"/>
        <source>Export period…</source>
        <translation>按期间导出…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="351"/>
        <source>Export the audit trail</source>
        <translation>导出审计日志</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="371"/>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="351"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="253"/>
        <source>For audit verify --expect-head later</source>
        <translation>用于之后的 audit verify --expect-head</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="379"/>
        <source>No audit event matches %1: %2 holds only the header row.</source>
        <translation>没有符合 %1 的审计事件：%2 中只有表头行。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="338"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="232"/>
        <source>Verify chain</source>
        <translation>校验审计链</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="246"/>
        <source>Verify recomputes every event's hash and link.</source>
        <translation>校验会重新计算每条事件的哈希和链接。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/audit.py" line="305"/>
        <source>Verifying the audit chain…</source>
        <translation>正在校验审计链…</translation>
    </message>
</context>
<context>
    <name>BalanceSection</name>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="101"/>
        <source>&amp;Show</source>
        <translation>查询(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="106"/>
        <source>Amount received</source>
        <translation>已收取</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="107"/>
        <source>Applied</source>
        <translation>已抵扣</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="107"/>
        <source>Balance</source>
        <translation>余额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="117"/>
        <source>Balance owed</source>
        <translation>欠款余额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="114"/>
        <source>Billed (statements less credit notes)</source>
        <translation>应收（对账单减红字）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="106"/>
        <source>Contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="118"/>
        <source>Credit balance (unallocated)</source>
        <translation>预收余额（未核销）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="100"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="100"/>
        <source>Customer balance</source>
        <translation>客户余额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="116"/>
        <source>Deposits and prepayments applied</source>
        <translation>押金及预付款抵扣</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="106"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="117"/>
        <source>Open statements</source>
        <translation>未结清对账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="115"/>
        <source>Received (receipts less reversals)</source>
        <translation>已收（收款减冲回）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="107"/>
        <source>Refunded</source>
        <translation>已退还</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="99"/>
        <source>credit code or name</source>
        <translation>信用代码或名称</translation>
    </message>
</context>
<context>
    <name>BillingPage</name>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="160"/>
        <source>%1 (dry run, nothing written): would create %2 line(s) on %3 new and %4 existing draft statement(s).</source>
        <translation>%1（试算，未写入）：将在 %3 张新账单和 %4 张已有草稿账单上生成 %2 条明细。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="181"/>
        <source>%1 draft statement(s) of %2 pending issue.</source>
        <translation>%2 尚有 %1 张草稿账单待开具。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="121"/>
        <source>%1 has not ended; it can be billed from %2 00:00 (Asia/Shanghai). A dry run shows it now, provisionally.</source>
        <translation>%1 尚未结束，自 %2 00:00（北京时间）起可计费。试算可先查看暂估结果。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="170"/>
        <source>%1 line(s) held back: see the warnings.</source>
        <translation>%1 条明细暂缓计费：见警告。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="174"/>
        <source>%1 line(s) rebill credited lines.</source>
        <translation>%1 个条目为已冲销条目的重新计费。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="168"/>
        <source>%1 line(s) were billed by earlier runs.</source>
        <translation>%1 条明细已在之前的运行中计费。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="208"/>
        <source>%1 statement(s) issued.</source>
        <translation>已开具 %1 张账单。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="162"/>
        <source>%1: created %2 line(s) on %3 new and %4 existing draft statement(s).</source>
        <translation>%1：已在 %3 张新账单和 %4 张已有草稿账单上生成 %2 条明细。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="158"/>
        <source>%1: nothing to bill.</source>
        <translation>%1：没有需要计费的项目。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="156"/>
        <source>%1: nothing to bill; every line already exists (%2 from earlier runs).</source>
        <translation>%1：没有需要计费的项目；所有明细均已存在（之前运行生成 %2 条）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="144"/>
        <source>Billing %1…</source>
        <translation>正在计费 %1…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="154"/>
        <source>Billing run %1 cancelled; nothing was written.</source>
        <translation>%1 计费已取消，未写入任何数据。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="67"/>
        <source>Choose a month and press Dry run to see what a run would bill.</source>
        <translation>选择月份并点击“试算”，查看本次将计费的内容。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="73"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="48"/>
        <source>Dry run</source>
        <translation>试算</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="144"/>
        <source>Dry run for %1…</source>
        <translation>正在试算 %1…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="222"/>
        <source>Excel (*.xlsx);;CSV (*.csv)</source>
        <translation>Excel (*.xlsx);;CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="221"/>
        <source>Export statements</source>
        <translation>导出账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="53"/>
        <source>Export statements…</source>
        <translation>导出账单…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="235"/>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="52"/>
        <source>Handovers…</source>
        <translation>交付…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="198"/>
        <source>Issue every draft statement of %1? Issued statements take their numbers and never change.</source>
        <translation>开具 %1 的全部草稿账单？开具后的账单将获得编号且不可再修改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="197"/>
        <source>Issue statements</source>
        <translation>开具账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="51"/>
        <source>Issue the period's drafts</source>
        <translation>开具本期草稿账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="172"/>
        <source>Issued %1: %2</source>
        <translation>已开具 %1 张：%2</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="214"/>
        <source>Issuing…</source>
        <translation>正在开具…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="73"/>
        <source>Lines</source>
        <translation>明细数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="193"/>
        <source>No warnings: meters and leases are complete.</source>
        <translation>无警告：电表读数和租赁记录完整。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="74"/>
        <source>Number</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="177"/>
        <source>PROVISIONAL: %1 has not ended; usage metered up to %2 only.</source>
        <translation>暂估：%1 尚未结束，用量仅计至 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="38"/>
        <source>Period</source>
        <translation>账期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="49"/>
        <source>Run</source>
        <translation>计费</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="50"/>
        <source>Run and issue</source>
        <translation>计费并开具</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="65"/>
        <source>Run result</source>
        <translation>运行结果</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="73"/>
        <source>Subsidiary</source>
        <translation>子公司</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="73"/>
        <source>Subtotal</source>
        <translation>小计</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="165"/>
        <source>Subtotal %1 + tax %2 = %3.</source>
        <translation>小计 %1 + 税额 %2 = %3。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="74"/>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/page.py" line="74"/>
        <source>Total</source>
        <translation>价税合计</translation>
    </message>
</context>
<context>
    <name>CapacityDialog</name>
    <message>
        <location filename="../../ui/pages/capacity.py" line="283"/>
        <source> incl. %1 h, %2 / h beyond</source>
        <translation>，含 %1 卡时，超出 %2 元/卡时</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="106"/>
        <source> month(s)</source>
        <translation> 个月</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="265"/>
        <source>%1 (degraded power: %2)</source>
        <translation>%1（供电能力不足：%2）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="268"/>
        <source>%1 (reduced power redundancy: %2)</source>
        <translation>%1（供电冗余降低：%2）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/pages/capacity.py" line="209"/>
        <source>%n offer(s), best fit first, free %1 – %2</source>
        <translation><numerusform>%n 个方案，最合适的在前，%1 至 %2 空闲</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="158"/>
        <source>&amp;Hold offer</source>
        <translation>预留资源(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="161"/>
        <source>&amp;Quote PDF…</source>
        <translation>报价单 PDF(&amp;Q)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="122"/>
        <source>&amp;Search</source>
        <translation>查询(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="156"/>
        <source>(no rack)</source>
        <translation>（不加机柜）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="116"/>
        <source>(the site's subsidiary)</source>
        <translation>（机房所属子公司）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="169"/>
        <source>Add a rack</source>
        <translation>加购机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="39"/>
        <source>Capacity search</source>
        <translation>算力资源查询</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="121"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="386"/>
        <source>Draft contract %1 made from quote %2; submit it for approval</source>
        <translation>已由报价单 %2 生成草稿合同 %1；请提交审批</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="132"/>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="137"/>
        <source>First month</source>
        <translation>首月金额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="134"/>
        <source>Free there</source>
        <translation>该处空闲</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="77"/>
        <source>GPUs</source>
        <translation>GPU 卡</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="341"/>
        <source>Hold %1: %2 GPUs on %3 nodes, held until %4</source>
        <translation>预留 %1：%3 台节点共 %2 张 GPU，保留至 %4</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="334"/>
        <source>Holding %1 GPUs on %2 nodes…</source>
        <translation>正在预留 %2 台节点上的 %1 张 GPU…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="139"/>
        <source>In words</source>
        <translation>大写</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="164"/>
        <source>Make &amp;contract</source>
        <translation>生成合同(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="382"/>
        <source>Making the draft contract from quote %1…</source>
        <translation>正在由报价单 %1 生成草稿合同…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="356"/>
        <source>Making the quote of hold %1…</source>
        <translation>正在生成预留 %1 的报价单…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="132"/>
        <source>Model</source>
        <translation>型号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="133"/>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="134"/>
        <source>Nodes offered</source>
        <translation>推荐节点</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="245"/>
        <source>Offered nodes marked “degraded power” are in a rack whose side kept cannot carry the rack's load while a maintenance window works on the other side: offered last.</source>
        <translation>标注“供电能力不足”的节点所在机柜在维护窗口施工期间，保留的一路供电无法承载整柜负载：排在最后推荐。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="242"/>
        <source>Offered nodes marked “reduced power redundancy” stay up on one power side while a maintenance window works on the other.</source>
        <translation>标注“供电冗余降低”的节点在维护窗口施工期间仅由单路供电运行。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="138"/>
        <source>Period (excl. VAT)</source>
        <translation>服务期金额（不含税）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="137"/>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="361"/>
        <source>Quote %1: %2 for the period, first month %3; valid until %4</source>
        <translation>报价单 %1：服务期合计 %2，首月 %3；有效期至 %4</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="133"/>
        <source>Racks</source>
        <translation>机柜数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="59"/>
        <source>Request</source>
        <translation>需求</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="132"/>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="137"/>
        <source>Term</source>
        <translation>计费方式</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="138"/>
        <source>Total</source>
        <translation>价税合计</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="138"/>
        <source>VAT</source>
        <translation>增值税</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="88"/>
        <source>Wanted</source>
        <translation>需求量</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="112"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="98"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="70"/>
        <source>a model, or several separated by commas (e.g. H100 and Ascend 910B in one search)</source>
        <translation>一个型号，或以逗号分隔的多个型号（例如 H100 与昇腾 910B 一起查询）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="65"/>
        <source>any 8-GPU training model</source>
        <translation>任意 8 卡训练机型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="81"/>
        <source>anywhere (one site)</source>
        <translation>不限（同一机房）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="109"/>
        <source>for</source>
        <translation>共</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="107"/>
        <source>from</source>
        <translation>自</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="298"/>
        <source>hold the selected offer's nodes for the customer (Ctrl+H)</source>
        <translation>为客户预留所选方案的节点（Ctrl+H）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="81"/>
        <source>in one fabric</source>
        <translation>同一网络（Fabric）内</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="82"/>
        <source>in one scale-up domain</source>
        <translation>同一 Scale-up 域内</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="78"/>
        <source>nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="105"/>
        <source>open-ended</source>
        <translation>不定期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="300"/>
        <source>price the held nodes (and a rack) on the chosen term, and preview the PDF</source>
        <translation>按所选计费方式为预留节点（及机柜）报价，并预览 PDF</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="92"/>
        <source>region code or name, e.g. 460100 or 海口市</source>
        <translation>区域代码或名称，例如 460100 或 海口市</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="119"/>
        <source>signed by</source>
        <translation>签约主体</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="95"/>
        <source>site code</source>
        <translation>机房代码</translation>
    </message>
    <message>
        <location filename="../../ui/pages/capacity.py" line="302"/>
        <source>the customer accepted: make the draft contract naming the held nodes' GPUs</source>
        <translation>客户已接受：生成草稿合同，列明预留节点的 GPU</translation>
    </message>
</context>
<context>
    <name>ChangePasswordDialog</name>
    <message>
        <location filename="../../ui/shell/account.py" line="37"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/shell/account.py" line="19"/>
        <source>Change my password</source>
        <translation>修改我的密码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/account.py" line="36"/>
        <source>Change password</source>
        <translation>修改密码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/account.py" line="24"/>
        <source>Current password</source>
        <translation>当前密码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/account.py" line="24"/>
        <source>New password</source>
        <translation>新密码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/account.py" line="25"/>
        <source>New password again</source>
        <translation>再次输入新密码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/account.py" line="21"/>
        <source>User: %1 (%2)</source>
        <translation>用户：%1（%2）</translation>
    </message>
    <message>
        <location filename="../../ui/shell/account.py" line="55"/>
        <source>the two new passwords differ</source>
        <translation>两次输入的新密码不一致</translation>
    </message>
</context>
<context>
    <name>ChoiceFilterDialog</name>
    <message>
        <location filename="../../ui/kit/listfilters.py" line="33"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listfilters.py" line="32"/>
        <source>Filter</source>
        <translation>筛选</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listfilters.py" line="20"/>
        <source>Filter by %1</source>
        <translation>按%1筛选</translation>
    </message>
</context>
<context>
    <name>ClustersPage</name>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="242"/>
        <source>(dashed outline: maintenance; red corner: not offered for its GPUs' states)</source>
        <translation>（虚线边框：维护中；红色角标：因 GPU 状态不可提供）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="61"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="228"/>
        <source>Ascend</source>
        <translation>昇腾</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="118"/>
        <source>By</source>
        <translation>操作人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="264"/>
        <source>Choose a node first</source>
        <translation>请先选择一个节点</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="52"/>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="61"/>
        <source>Code</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="98"/>
        <source>Colour by state</source>
        <translation>按状态着色</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="99"/>
        <source>Colour by tenant</source>
        <translation>按租户着色</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="123"/>
        <source>Drain</source>
        <translation>排空</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="52"/>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="61"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="45"/>
        <source>GPU clusters</source>
        <translation>GPU 集群</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="118"/>
        <source>GPU model</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="53"/>
        <source>GPU models</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="53"/>
        <source>GPUs</source>
        <translation>GPU 卡</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="72"/>
        <source>Health events</source>
        <translation>健康事件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="117"/>
        <source>Hold / not offered</source>
        <translation>预留 / 不可提供</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="117"/>
        <source>Maintenance</source>
        <translation>维护</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="127"/>
        <source>Maintenance on/off</source>
        <translation>维护标记 开/关</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="131"/>
        <source>Move</source>
        <translation>变更</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="138"/>
        <source>Move to</source>
        <translation>变更为</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="61"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="53"/>
        <source>Node states</source>
        <translation>节点状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="52"/>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="62"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="118"/>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="52"/>
        <source>Rails</source>
        <translation>轨道数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="118"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="122"/>
        <source>Reason (recorded with who and when)</source>
        <translation>原因（与操作人、时间一并记录）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="47"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="118"/>
        <source>Since</source>
        <translation>起始时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="52"/>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="62"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="117"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="118"/>
        <source>Tenant</source>
        <translation>租户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="61"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="70"/>
        <source>Topology</source>
        <translation>拓扑</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="125"/>
        <source>Undrain</source>
        <translation>恢复服务</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="73"/>
        <source>Utilisation by model and site</source>
        <translation>按型号与站点的利用率</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="61"/>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="240"/>
        <source>held by a capacity hold</source>
        <translation>已被容量预留</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="237"/>
        <source>no tenant</source>
        <translation>无租户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/__init__.py" line="209"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
</context>
<context>
    <name>ContractDialog</name>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="206"/>
        <source>%1 (not free for the term)</source>
        <translation>%1（合同期内不空闲）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="184"/>
        <source>%1 signs: it operates %2.</source>
        <translation>由 %1 签约：其运营 %2。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/pages/contracts/editor.py" line="343"/>
        <source>%n item(s) need attention (marked red).</source>
        <translation><numerusform>%n 个条目需要修改（红色标出）。</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/pages/contracts/editor.py" line="218"/>
        <source>%n rack(s) free from %1 to %2</source>
        <translation><numerusform>%1 至 %2 期间空闲机柜 %n 个</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="129"/>
        <source>(by kind)</source>
        <translation>（按类型）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="93"/>
        <source>(choose a customer)</source>
        <translation>（请选择客户）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="121"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="90"/>
        <source>(numbered when saved)</source>
        <translation>（保存时编号）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="80"/>
        <source>Add item</source>
        <translation>添加条目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="150"/>
        <source>Billing starts at handover; empty = the contract's start</source>
        <translation>计费自交付日开始；留空即合同开始日</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="136"/>
        <source>Cage (instead of a rack)</source>
        <translation>笼位（代替机柜）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="61"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="370"/>
        <source>Changed by someone else</source>
        <translation>记录已被他人修改</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="117"/>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="77"/>
        <source>Contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="297"/>
        <source>Contract %1 is %2: only drafts are edited; a signed contract changes by amendment.</source>
        <translation>合同 %1 状态为%2：只能编辑草稿；已签合同须通过变更修改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="94"/>
        <source>Customer *</source>
        <translation>客户 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="68"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="121"/>
        <source>Description *</source>
        <translation>描述 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="122"/>
        <source>Description in English</source>
        <translation>英文描述</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="41"/>
        <source>Edit contract</source>
        <translation>编辑合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="114"/>
        <source>End *</source>
        <translation>结束 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="118"/>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="134"/>
        <source>From unit</source>
        <translation>起始 U 位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="137"/>
        <source>GPU model</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="147"/>
        <source>Hourly rate beyond</source>
        <translation>超出部分小时单价</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="146"/>
        <source>Included GPU-hours</source>
        <translation>包含卡时</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="149"/>
        <source>Installation price each</source>
        <translation>每条安装费</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="63"/>
        <source>Items</source>
        <translation>条目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="68"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="119"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="148"/>
        <source>Mbps</source>
        <translation>带宽（Mbps）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="140"/>
        <source>Named GPUs</source>
        <translation>指定 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="41"/>
        <source>New contract</source>
        <translation>新建合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="144"/>
        <source>No subsidiary covers the customer's region: no serving team or response time.</source>
        <translation>没有子公司覆盖该客户所在地区：无服务团队和响应时间。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="92"/>
        <source>Number</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="144"/>
        <source>Power allowance (kW)</source>
        <translation>功率配额（kW）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="145"/>
        <source>Price per kWh over it</source>
        <translation>超出部分每千瓦时单价</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="126"/>
        <source>Priced</source>
        <translation>计价方式</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="68"/>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="133"/>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="371"/>
        <source>Reload the contract now? Your edits will be lost.</source>
        <translation>现在重新加载合同？您的修改将丢失。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="83"/>
        <source>Remove item</source>
        <translation>删除条目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="60"/>
        <source>Save draft</source>
        <translation>保存草稿</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="146"/>
        <source>Served by %1 for the customer's region %2 (%3 h response).</source>
        <translation>客户所在地区 %2 由 %1 提供服务（%3 小时响应）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="143"/>
        <source>Service end</source>
        <translation>服务结束</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="124"/>
        <source>Service level</source>
        <translation>服务级别</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="141"/>
        <source>Service start (handover)</source>
        <translation>服务开始（交付日）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="113"/>
        <source>Start *</source>
        <translation>开始 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="95"/>
        <source>Subsidiary *</source>
        <translation>子公司 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="132"/>
        <source>Tax category</source>
        <translation>税目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="130"/>
        <source>Terms</source>
        <translation>条款</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="180"/>
        <source>The items are at %1's sites (%2): %1 signs.</source>
        <translation>项目位于 %1 的站点（%2）：应由 %1 签约。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="176"/>
        <source>The items are at sites of several subsidiaries (%1: %2); each signs its own contract.</source>
        <translation>各项目分属多个子公司的站点（%1：%2）；应由各子公司分别签约。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="174"/>
        <source>The signer is the subsidiary operating the site of the racks or GPUs.</source>
        <translation>签约方为机柜或 GPU 所在站点的运营子公司。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="115"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="135"/>
        <source>To unit</source>
        <translation>结束 U 位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="69"/>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="69"/>
        <source>Unit price</source>
        <translation>单价</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="125"/>
        <source>Unit price (CNY) *</source>
        <translation>单价（元）*</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="276"/>
        <source>a number, e.g. 12.5</source>
        <translation>请输入数字，例如 12.5</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="280"/>
        <source>a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="124"/>
        <source>for English documents of a Chinese contract; empty: made from the kind and object</source>
        <translation>用于中文合同的英文单据；留空则按类型与对象自动生成</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="333"/>
        <source>item %1: %2</source>
        <translation>条目 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="289"/>
        <source>no GPU with serial %1</source>
        <translation>没有序列号为 %1 的 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="139"/>
        <source>or named GPUs: serials, comma separated</source>
        <translation>或指定 GPU：序列号，以逗号分隔</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/editor.py" line="352"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>ContractItemsEditor</name>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="129"/>
        <source>(by kind)</source>
        <translation>（按类型）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="80"/>
        <source>Add item</source>
        <translation>添加条目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="150"/>
        <source>Billing starts at handover; empty = the contract's start</source>
        <translation>计费自交付日开始；留空即合同开始日</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="136"/>
        <source>Cage (instead of a rack)</source>
        <translation>笼位（代替机柜）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="68"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="121"/>
        <source>Description *</source>
        <translation>描述 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="122"/>
        <source>Description in English</source>
        <translation>英文描述</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="134"/>
        <source>From unit</source>
        <translation>起始 U 位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="137"/>
        <source>GPU model</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="147"/>
        <source>Hourly rate beyond</source>
        <translation>超出部分小时单价</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="146"/>
        <source>Included GPU-hours</source>
        <translation>包含卡时</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="149"/>
        <source>Installation price each</source>
        <translation>每条安装费</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="63"/>
        <source>Items</source>
        <translation>条目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="68"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="148"/>
        <source>Mbps</source>
        <translation>带宽（Mbps）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="140"/>
        <source>Named GPUs</source>
        <translation>指定 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="144"/>
        <source>Power allowance (kW)</source>
        <translation>功率配额（kW）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="145"/>
        <source>Price per kWh over it</source>
        <translation>超出部分每千瓦时单价</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="126"/>
        <source>Priced</source>
        <translation>计价方式</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="68"/>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="133"/>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="83"/>
        <source>Remove item</source>
        <translation>删除条目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="143"/>
        <source>Service end</source>
        <translation>服务结束</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="141"/>
        <source>Service start (handover)</source>
        <translation>服务开始（交付日）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="132"/>
        <source>Tax category</source>
        <translation>税目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="135"/>
        <source>To unit</source>
        <translation>结束 U 位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="69"/>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="69"/>
        <source>Unit price</source>
        <translation>单价</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="125"/>
        <source>Unit price (CNY) *</source>
        <translation>单价（元）*</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="276"/>
        <source>a number, e.g. 12.5</source>
        <translation>请输入数字，例如 12.5</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="280"/>
        <source>a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="124"/>
        <source>for English documents of a Chinese contract; empty: made from the kind and object</source>
        <translation>用于中文合同的英文单据；留空则按类型与对象自动生成</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="289"/>
        <source>no GPU with serial %1</source>
        <translation>没有序列号为 %1 的 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="139"/>
        <source>or named GPUs: serials, comma separated</source>
        <translation>或指定 GPU：序列号，以逗号分隔</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/items.py" line="292"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>ContractPanel</name>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="132"/>
        <source>%1 contract %2. The reason goes into the audit trail.</source>
        <translation>%1合同 %2。原因将记入审计日志。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="215"/>
        <source>A new revision takes over on its effective date; edit its items, then submit it.</source>
        <translation>新版本自生效日起取代原合同；请修改条目后提交审批。</translation>
    </message>
    <message>
        <source>Activate</source>
        <translation>生效</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="141"/>
        <source>Activate %1? Its racks and GPUs are leased to %2 now.</source>
        <translation>确定生效 %1？其机柜和 GPU 将立即租给 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="214"/>
        <source>Amend %1</source>
        <translation>变更 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="59"/>
        <source>Amend…</source>
        <translation>变更…</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="143"/>
        <source>Approve %1 for %2?</source>
        <translation>确定批准 %2 的合同 %1？</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="190"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="169"/>
        <source>Changed by someone else</source>
        <translation>记录已被他人修改</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="79"/>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="47"/>
        <source>Choose a contract</source>
        <translation>请选择合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="231"/>
        <source>Contract %1</source>
        <translation>合同 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="76"/>
        <source>Customer: %1</source>
        <translation>客户：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="48"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="57"/>
        <source>Edit draft…</source>
        <translation>编辑草稿…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="216"/>
        <source>Effective date</source>
        <translation>生效日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="187"/>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="79"/>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <source>Expire</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="142"/>
        <source>Expire %1? Its racks and GPUs are released to %2's end date.</source>
        <translation>确定使 %1 到期？其机柜和 GPU 将按 %2 的合同结束日释放。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="48"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="79"/>
        <source>Language: %1</source>
        <translation>语言：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="135"/>
        <source>Last day of service</source>
        <translation>服务最后一天</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="48"/>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="60"/>
        <source>Print / PDF…</source>
        <translation>打印 / PDF…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="48"/>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Reject…</source>
        <translation>驳回…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="170"/>
        <source>Reload the contract now?</source>
        <translation>现在重新加载合同？</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="189"/>
        <source>Renew</source>
        <translation>续签</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="182"/>
        <source>Renew %1</source>
        <translation>续签 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="85"/>
        <source>Renews %1</source>
        <translation>续签自 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="59"/>
        <source>Renew…</source>
        <translation>续签…</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="82"/>
        <source>Revision %1, effective %2</source>
        <translation>第 %1 版，%2 生效</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="49"/>
        <source>Service start</source>
        <translation>服务开始</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="186"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="77"/>
        <source>Status: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <source>Submit for approval</source>
        <translation>提交审批</translation>
    </message>
    <message>
        <source>Suspend…</source>
        <translation>暂停…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="78"/>
        <source>Term: %1 – %2</source>
        <translation>期限：%1 至 %2</translation>
    </message>
    <message>
        <source>Terminate…</source>
        <translation>终止…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/panel.py" line="163"/>
        <source>Updating the contract…</source>
        <translation>正在更新合同…</translation>
    </message>
</context>
<context>
    <name>ContractTotals</name>
    <message numerus="yes">
        <location filename="../../ui/pages/contracts/figures.py" line="55"/>
        <source>%n item(s) with errors are not counted.</source>
        <translation><numerusform>%n 个有误的项目未计入。</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="47"/>
        <source>Expected total (incl. VAT)</source>
        <translation>预计合计（含税）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="46"/>
        <source>GPU-hours at full use (excl. VAT)</source>
        <translation>满负荷卡时费用（不含税）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="44"/>
        <source>In words</source>
        <translation>大写</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="41"/>
        <source>Monthly recurring</source>
        <translation>月度固定费用</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="41"/>
        <source>One-off</source>
        <translation>一次性费用</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="65"/>
        <source>Terms side by side (incl. VAT)</source>
        <translation>各计费方式对比（含税）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="43"/>
        <source>Total (incl. VAT)</source>
        <translation>合同总金额（含税）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="53"/>
        <source>Usage (GPU-hours, power over the allowance) is billed as used, on top.</source>
        <translation>另按实际用量计费（GPU 时、超额电量），不含在上述金额内。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="42"/>
        <source>VAT</source>
        <translation>增值税</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/figures.py" line="42"/>
        <source>Whole term (excl. VAT)</source>
        <translation>合同期总金额（不含税）</translation>
    </message>
</context>
<context>
    <name>ContractsPage</name>
    <message>
        <location filename="../../ui/pages/contracts/list.py" line="31"/>
        <source>Capacity search…</source>
        <translation>算力资源查询…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/contracts/list.py" line="27"/>
        <source>New contract…</source>
        <translation>新建合同…</translation>
    </message>
</context>
<context>
    <name>CreditNoteDialog</name>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="68"/>
        <source>A credit note says why.</source>
        <translation>红字账单须说明原因。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="74"/>
        <source>A partial amount credits exactly one line: tick only that line.</source>
        <translation>部分冲减只针对一个条目：请只勾选该条目。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="76"/>
        <source>A partial amount is a positive amount in yuan and fen, e.g. 1200.50.</source>
        <translation>部分冲减金额须为正数，精确到分，例如 1200.50。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="72"/>
        <source>A waiver credits the lines in full: leave the partial amount empty.</source>
        <translation>免收按整行冲销：请勿填写部分金额。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="128"/>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="56"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="70"/>
        <source>Choose at least one line.</source>
        <translation>请至少选择一条明细。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="124"/>
        <source>Confirm credit note</source>
        <translation>确认红字账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="30"/>
        <source>Credit note for %1</source>
        <translation>为 %1 开具红字账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="112"/>
        <source>Issue a credit note against %1 for %2 (incl. VAT)?</source>
        <translation>对 %1 开具红字账单，金额 %2（含税）？</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="55"/>
        <source>Issue credit note</source>
        <translation>开具红字账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="51"/>
        <source>Lines to credit</source>
        <translation>要冲销的明细</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="105"/>
        <source>Part of “%1”: %2 + VAT %3</source>
        <translation>部分冲减“%1”：%2，增值税 %3</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="38"/>
        <source>Partial amount</source>
        <translation>部分冲减金额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="34"/>
        <source>Reason *</source>
        <translation>原因 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="114"/>
        <source>Reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="120"/>
        <source>The lines are reversed in full; they may be rebilled afterwards.</source>
        <translation>所选行全额冲销，之后可重新出账。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="118"/>
        <source>The lines are waived: reversed in full and never billed again.</source>
        <translation>所选行免收：全额冲销，不再计费。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="116"/>
        <source>The rest of the line stays billed; nothing is rebilled.</source>
        <translation>该行其余金额照常计费，不重新出账。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="40"/>
        <source>Waive: never bill these lines again (SLA waiver, bad debt)</source>
        <translation>免收：这些行不再计费（SLA 豁免、坏账）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="37"/>
        <source>empty: credit the lines in full (they may be rebilled)</source>
        <translation>留空：全额冲销所选条目（之后可重新计费）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="109"/>
        <source>“%1”: %2 + VAT %3</source>
        <translation>“%1”：%2，增值税 %3</translation>
    </message>
</context>
<context>
    <name>CreditsTab</name>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="182"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="191"/>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="183"/>
        <source>Contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="184"/>
        <source>Decided by</source>
        <translation>审批人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="182"/>
        <source>Period</source>
        <translation>账期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="183"/>
        <source>Proposed by</source>
        <translation>提出人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="184"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="261"/>
        <source>Reject</source>
        <translation>驳回</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="193"/>
        <source>Reject…</source>
        <translation>驳回…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="182"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="183"/>
        <source>Ticket</source>
        <translation>工单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="261"/>
        <source>Why is the credit rejected:</source>
        <translation>驳回赔偿的原因：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="246"/>
        <source>You proposed it: another administrator decides (four eyes)</source>
        <translation>此赔偿由您提出：须由另一位管理员审批（四眼原则）</translation>
    </message>
</context>
<context>
    <name>CustomerDialog</name>
    <message>
        <location filename="../../ui/kit/forms.py" line="116"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="349"/>
        <source>Add contact</source>
        <translation>添加联系人</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="79"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="267"/>
        <source>Changed by someone else</source>
        <translation>记录已被他人修改</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="442"/>
        <source>Contact %1: %2</source>
        <translation>联系人 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="400"/>
        <source>Contacts (%1)</source>
        <translation>联系人（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="70"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="343"/>
        <source>E-mail</source>
        <translation>电子邮箱</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="49"/>
        <source>Edit %1</source>
        <translation>编辑%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="97"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="99"/>
        <source>History (%1)</source>
        <translation>历史（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="342"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="49"/>
        <source>New %1</source>
        <translation>新建%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="342"/>
        <source>Phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="342"/>
        <source>Position</source>
        <translation>职务</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="268"/>
        <source>Reload the record now? Your edits will be lost.</source>
        <translation>现在重新加载该记录？您的修改将丢失。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="352"/>
        <source>Remove contact</source>
        <translation>删除联系人</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="78"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="148"/>
        <source>This record no longer exists.</source>
        <translation>该记录已不存在。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="203"/>
        <source>a number, e.g. 12.5</source>
        <translation>请输入数字，例如 12.5</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="195"/>
        <source>a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="177"/>
        <source>choose one of the listed entries</source>
        <translation>请从列表中选择</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="140"/>
        <source>leave empty to keep</source>
        <translation>留空则不修改</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="211"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>DashboardCharts</name>
    <message>
        <location filename="../../ui/widgets/charts.py" line="303"/>
        <source>%1: %2 of %3 U used in %4 racks</source>
        <translation>%1：%4 个机柜共 %3 U，已用 %2 U</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="334"/>
        <source>%1: %2 of %3 kW (%4%)</source>
        <translation>%1：%2 / %3 kW（%4%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="431"/>
        <source>%1: ¥%2 net, ¥%3 with tax</source>
        <translation>%1：不含税 ¥%2，含税 ¥%3</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/charts.py" line="208"/>
        <source>%n day(s)</source>
        <translation><numerusform>%n 天</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="416"/>
        <source>CNY</source>
        <translation>元</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="314"/>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="156"/>
        <source>Contracts ending</source>
        <translation>即将到期的合同</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="138"/>
        <source>GPU fleet by model and state</source>
        <translation>GPU 按型号和状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="379"/>
        <source>GPUs</source>
        <translation>GPU 卡</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="393"/>
        <source>Net revenue (CNY)</source>
        <translation>不含税收入（元）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="138"/>
        <source>No GPUs yet</source>
        <translation>暂无 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="140"/>
        <source>No issued statements yet</source>
        <translation>暂无已开具账单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="212"/>
        <source>No live contract ends within 90 days.</source>
        <translation>90 天内没有到期的生效合同。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="135"/>
        <source>No racks yet</source>
        <translation>暂无机柜</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="137"/>
        <source>No sites yet</source>
        <translation>暂无站点</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="136"/>
        <source>Power: typical draw against capacity per site (kW)</source>
        <translation>各站点典型功耗与容量（kW）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="134"/>
        <source>Rack utilisation per site</source>
        <translation>各站点机柜使用率</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="139"/>
        <source>Revenue by month (issued statements, net of tax)</source>
        <translation>月度收入（已开具账单，不含税）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="210"/>
        <source>Soonest</source>
        <translation>最近到期</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="312"/>
        <source>Typical draw</source>
        <translation>典型功耗</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="282"/>
        <source>Units used (%)</source>
        <translation>已用 U 位（%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="175"/>
        <source>within %1 days</source>
        <translation>%1 天内</translation>
    </message>
</context>
<context>
    <name>DashboardPage</name>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="231"/>
        <source> (%1 shown)</source>
        <translation>（列出 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="180"/>
        <source>Active contracts</source>
        <translation>生效合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="81"/>
        <source>Contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="74"/>
        <source>Contracts due (within 180/90/60/30 days)</source>
        <translation>即将到期的合同（180/90/60/30 天内）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="229"/>
        <source>Contracts due (within 180/90/60/30 days): %1</source>
        <translation>即将到期的合同（180/90/60/30 天内）：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="81"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="179"/>
        <source>Customers</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="81"/>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="177"/>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="181"/>
        <source>Ending in 30/60/90 days</source>
        <translation>30/60/90 天内到期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="81"/>
        <source>Ends</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="48"/>
        <source>GPU capacity search…</source>
        <translation>GPU 算力资源查询…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="199"/>
        <source>GPU fleet by state: </source>
        <translation>GPU 按状态：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="178"/>
        <source>GPUs</source>
        <translation>GPU 卡</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="186"/>
        <source>P1 / P2 · due in 1 h</source>
        <translation>P1 / P2 · 1 小时内到期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="176"/>
        <source>Racks (leased)</source>
        <translation>机柜（已租）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="75"/>
        <source>Red: within 30 days; orange: 60; yellow: 90; green: 180</source>
        <translation>红色：30 天内；橙色：60 天内；黄色：90 天内；绿色：180 天内</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="175"/>
        <source>Sites</source>
        <translation>站点</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="233"/>
        <source>The nearest %1 are listed; the Contracts page has all of them.</source>
        <translation>列出最近到期的 %1 份；全部合同见“合同”页。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="223"/>
        <source>renewal drafted</source>
        <translation>已起草续签</translation>
    </message>
    <message>
        <location filename="../../ui/pages/dashboard.py" line="221"/>
        <source>≤ %1 days</source>
        <translation>≤ %1 天</translation>
    </message>
</context>
<context>
    <name>DashboardWidget</name>
    <message>
        <location filename="../../ui/widgets/charts.py" line="303"/>
        <source>%1: %2 of %3 U used in %4 racks</source>
        <translation>%1：%4 个机柜共 %3 U，已用 %2 U</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="334"/>
        <source>%1: %2 of %3 kW (%4%)</source>
        <translation>%1：%2 / %3 kW（%4%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="431"/>
        <source>%1: ¥%2 net, ¥%3 with tax</source>
        <translation>%1：不含税 ¥%2，含税 ¥%3</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/charts.py" line="208"/>
        <source>%n day(s)</source>
        <translation><numerusform>%n 天</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="416"/>
        <source>CNY</source>
        <translation>元</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="314"/>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="156"/>
        <source>Contracts ending</source>
        <translation>即将到期的合同</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="138"/>
        <source>GPU fleet by model and state</source>
        <translation>GPU 按型号和状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="379"/>
        <source>GPUs</source>
        <translation>GPU 卡</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="393"/>
        <source>Net revenue (CNY)</source>
        <translation>不含税收入（元）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="138"/>
        <source>No GPUs yet</source>
        <translation>暂无 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="140"/>
        <source>No issued statements yet</source>
        <translation>暂无已开具账单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="212"/>
        <source>No live contract ends within 90 days.</source>
        <translation>90 天内没有到期的生效合同。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="135"/>
        <source>No racks yet</source>
        <translation>暂无机柜</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="137"/>
        <source>No sites yet</source>
        <translation>暂无站点</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="136"/>
        <source>Power: typical draw against capacity per site (kW)</source>
        <translation>各站点典型功耗与容量（kW）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="134"/>
        <source>Rack utilisation per site</source>
        <translation>各站点机柜使用率</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="139"/>
        <source>Revenue by month (issued statements, net of tax)</source>
        <translation>月度收入（已开具账单，不含税）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="210"/>
        <source>Soonest</source>
        <translation>最近到期</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="312"/>
        <source>Typical draw</source>
        <translation>典型功耗</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="282"/>
        <source>Units used (%)</source>
        <translation>已用 U 位（%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="175"/>
        <source>within %1 days</source>
        <translation>%1 天内</translation>
    </message>
</context>
<context>
    <name>DbPasswordDialog</name>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="120"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="119"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="108"/>
        <source>Database password</source>
        <translation>数据库密码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="117"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="110"/>
        <source>The password of %1 on %2 is not stored on this computer.</source>
        <translation>%2 上 %1 的密码未保存在本机。</translation>
    </message>
</context>
<context>
    <name>DepositsSection</name>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="134"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="151"/>
        <source>Amount received</source>
        <translation>已收取</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="140"/>
        <source>App&amp;ly</source>
        <translation>抵扣(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="152"/>
        <source>Applied</source>
        <translation>已抵扣</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="138"/>
        <source>Apply to a statement</source>
        <translation>抵扣对账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="152"/>
        <source>Balance</source>
        <translation>余额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="135"/>
        <source>Contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="134"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="134"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="135"/>
        <source>R&amp;eceive</source>
        <translation>收取(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="149"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="133"/>
        <source>Receive</source>
        <translation>收取</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="135"/>
        <source>Reference</source>
        <translation>流水号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="149"/>
        <source>Refu&amp;nd</source>
        <translation>退还(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="146"/>
        <source>Refund</source>
        <translation>退还</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="152"/>
        <source>Refunded</source>
        <translation>已退还</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="139"/>
        <source>Statement no.</source>
        <translation>对账单号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="137"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="130"/>
        <source>credit code or name</source>
        <translation>信用代码或名称</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="131"/>
        <source>optional</source>
        <translation>选填</translation>
    </message>
</context>
<context>
    <name>DeviceDialog</name>
    <message>
        <location filename="../../ui/kit/forms.py" line="116"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="79"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="267"/>
        <source>Changed by someone else</source>
        <translation>记录已被他人修改</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="326"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="70"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="49"/>
        <source>Edit %1</source>
        <translation>编辑%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="317"/>
        <source>GPU slots (%1)</source>
        <translation>GPU 槽位（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="97"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="99"/>
        <source>History (%1)</source>
        <translation>历史（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="49"/>
        <source>New %1</source>
        <translation>新建%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="268"/>
        <source>Reload the record now? Your edits will be lost.</source>
        <translation>现在重新加载该记录？您的修改将丢失。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="78"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="327"/>
        <source>The slot changes are already saved (see History)</source>
        <translation>槽位的变更已随操作保存（见历史记录）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="148"/>
        <source>This record no longer exists.</source>
        <translation>该记录已不存在。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="203"/>
        <source>a number, e.g. 12.5</source>
        <translation>请输入数字，例如 12.5</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="195"/>
        <source>a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="177"/>
        <source>choose one of the listed entries</source>
        <translation>请从列表中选择</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="140"/>
        <source>leave empty to keep</source>
        <translation>留空则不修改</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="211"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>DeviceTypeImportDialog</name>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="287"/>
        <source>%1 file(s): %2 can be imported (%3), %4 refused, %5 with power to check.</source>
        <translation>%1 个文件：%2 个可导入（%3），%4 个被拒绝，%5 个功率待核实。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="284"/>
        <source>%1 new, %2 updated, %3 unchanged</source>
        <translation>新增 %1，更新 %2，未变 %3</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="177"/>
        <source>A .yaml/.yml file, or a folder such as devicetype-library/device-types</source>
        <translation>一个 .yaml/.yml 文件，或一个文件夹（如 devicetype-library/device-types）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="190"/>
        <source>All or nothing: import nothing if any file is refused</source>
        <translation>全部或全不：任一文件被拒绝则什么也不导入</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="252"/>
        <source>Cancelled; nothing was imported.</source>
        <translation>已取消，未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="242"/>
        <source>Checking device types…</source>
        <translation>正在检查设备型号…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="178"/>
        <source>Choose file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="180"/>
        <source>Choose folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="202"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="217"/>
        <source>Device type file</source>
        <translation>设备型号文件</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="218"/>
        <source>Device types (*.yaml *.yml);;All (*)</source>
        <translation>设备型号 (*.yaml *.yml);;全部 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="269"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="224"/>
        <source>Folder of device types</source>
        <translation>设备型号文件夹</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="200"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="174"/>
        <source>Import device types</source>
        <translation>导入设备型号</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="294"/>
        <source>Imported %1 of %2 file(s) (%3); %4 refused, listed above.</source>
        <translation>已导入 %2 个文件中的 %1 个（%3）；%4 个被拒绝，见上表。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="245"/>
        <source>Importing device types…</source>
        <translation>正在导入设备型号…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="255"/>
        <source>Nothing was imported: %1 file(s) refused (listed above).</source>
        <translation>未导入任何内容：%1 个文件被拒绝（见上表）。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="182"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="269"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="269"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="266"/>
        <source>power to check</source>
        <translation>功率待核实</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="262"/>
        <source>refused</source>
        <translation>已拒绝</translation>
    </message>
</context>
<context>
    <name>FapiaoSection</name>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="194"/>
        <source>&amp;Add fapiao</source>
        <translation>登记发票(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="189"/>
        <source>(the customer's profile)</source>
        <translation>（按客户开票信息）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="185"/>
        <source>20 digits</source>
        <translation>20 位数字</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="193"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="204"/>
        <source>Credit code</source>
        <translation>统一社会信用代码</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="199"/>
        <source>Credit note</source>
        <translation>红字账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="204"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="192"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="192"/>
        <source>Fapiao no.</source>
        <translation>发票号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="203"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="206"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="200"/>
        <source>Original fapiao</source>
        <translation>原发票号码</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="191"/>
        <source>Record a fapiao for a statement</source>
        <translation>登记对账单的发票</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="198"/>
        <source>Record a red-letter fapiao for a credit note</source>
        <translation>登记红字账单的红字发票</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="201"/>
        <source>Record red-le&amp;tter</source>
        <translation>登记红字发票(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="206"/>
        <source>Recorded by</source>
        <translation>登记人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="205"/>
        <source>Reverses</source>
        <translation>冲回/冲销</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="204"/>
        <source>Statement</source>
        <translation>账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="205"/>
        <source>Statement fapiao status</source>
        <translation>对账单开票状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="192"/>
        <source>Statement no.</source>
        <translation>对账单号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="193"/>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="205"/>
        <source>Total</source>
        <translation>价税合计</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="193"/>
        <source>Type</source>
        <translation>型号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="197"/>
        <source>the credit note's</source>
        <translation>按红字账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="196"/>
        <source>the fapiao it reverses</source>
        <translation>被冲红的原发票号码</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="187"/>
        <source>without tax</source>
        <translation>不含税</translation>
    </message>
</context>
<context>
    <name>FindFreeUnitsDialog</name>
    <message>
        <location filename="../../ui/pages/freespace.py" line="179"/>
        <source>%1 or more racks fit; the best %1 are listed. Choose a site or a room to narrow the search.</source>
        <translation>至少 %1 个机柜满足条件；列出最贴合的 %1 个。选择站点或机房以缩小范围。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="182"/>
        <source>%1 rack(s) with %2 contiguous free U, best fit first.</source>
        <translation>%1 个机柜有连续 %2U 空闲，最贴合的在前。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="51"/>
        <source>(any: units only)</source>
        <translation>（任意：只按 U 数）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="76"/>
        <source>(our own equipment)</source>
        <translation>（本公司设备）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="68"/>
        <source>(whole fleet)</source>
        <translation>（全部站点）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="79"/>
        <source>A rack leased to a customer takes only that customer's devices; other customers' reservations are never offered</source>
        <translation>已出租给客户的机柜只放该客户的设备；其他客户预留的 U 位不会列出</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="128"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="65"/>
        <source>Contiguous units</source>
        <translation>连续 U 数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="59"/>
        <source>Device type</source>
        <translation>设备型号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="95"/>
        <source>Face</source>
        <translation>朝向</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="36"/>
        <source>Find free U</source>
        <translation>查找空闲 U 位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="81"/>
        <source>For</source>
        <translation>用于</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="108"/>
        <source>Free (U)</source>
        <translation>空闲（U）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="88"/>
        <source>Full depth (both faces free)</source>
        <translation>全深（前后两面均空闲）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="107"/>
        <source>Lessee</source>
        <translation>承租客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="185"/>
        <source>No rack has %1 contiguous free U there.</source>
        <translation>该范围内没有机柜有连续 %1U 空闲。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="122"/>
        <source>Open elevation</source>
        <translation>打开立面图</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="125"/>
        <source>Place a device here…</source>
        <translation>在此上架设备…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="107"/>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="108"/>
        <source>Range</source>
        <translation>U 位范围</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="107"/>
        <source>Room</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="72"/>
        <source>Room %1</source>
        <translation>机房 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="100"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="107"/>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="70"/>
        <source>Site %1</source>
        <translation>站点 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="56"/>
        <source>Takes the type's height and depth, and leaves out racks whose power capacity cannot take its typical draw</source>
        <translation>按型号的高度和深度查找，并排除功率容量承受不了其典型功耗的机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="73"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../ui/pages/freespace.py" line="189"/>
        <source>both faces</source>
        <translation>前后两面</translation>
    </message>
</context>
<context>
    <name>FirstRunWizard</name>
    <message>
        <location filename="../../ui/shell/startup.py" line="70"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="69"/>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="39"/>
        <source>Create the administrator</source>
        <translation>创建管理员</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="53"/>
        <source>Display name</source>
        <translation>显示名称</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="56"/>
        <source>Load the demo data (sites, racks, GPUs, customers, contracts)</source>
        <translation>加载演示数据（站点、机柜、GPU、客户、合同）</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="52"/>
        <source>Login</source>
        <translation>登录名</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="54"/>
        <source>Password (8+ characters)</source>
        <translation>密码（至少 8 位）</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="55"/>
        <source>Repeat password</source>
        <translation>确认密码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="75"/>
        <source>The two passwords differ.</source>
        <translation>两次输入的密码不一致。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="40"/>
        <source>This database has no users yet. The first user is the administrator.</source>
        <translation>该数据库还没有用户。第一个用户即为管理员。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="35"/>
        <source>Welcome to the IDC console</source>
        <translation>欢迎使用 IDC 管理控制台</translation>
    </message>
</context>
<context>
    <name>FormDialog</name>
    <message>
        <location filename="../../ui/kit/forms.py" line="116"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="79"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="267"/>
        <source>Changed by someone else</source>
        <translation>记录已被他人修改</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="70"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="49"/>
        <source>Edit %1</source>
        <translation>编辑%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="97"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="99"/>
        <source>History (%1)</source>
        <translation>历史（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="49"/>
        <source>New %1</source>
        <translation>新建%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="268"/>
        <source>Reload the record now? Your edits will be lost.</source>
        <translation>现在重新加载该记录？您的修改将丢失。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="78"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="148"/>
        <source>This record no longer exists.</source>
        <translation>该记录已不存在。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="203"/>
        <source>a number, e.g. 12.5</source>
        <translation>请输入数字，例如 12.5</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="195"/>
        <source>a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="177"/>
        <source>choose one of the listed entries</source>
        <translation>请从列表中选择</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="140"/>
        <source>leave empty to keep</source>
        <translation>留空则不修改</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="211"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>FourEyesCheck</name>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="25"/>
        <source>Contracts are approved by a second person (four eyes)</source>
        <translation>合同须由另一人审批（双人复核）</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="37"/>
        <source>Off lets whoever drafted a contract approve it; the change is audited and the contract's approval line says so.</source>
        <translation>关闭后起草人可自行审批合同；此更改记入审计日志，合同的审批栏也会注明。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="47"/>
        <source>Refused</source>
        <translation>操作被拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="41"/>
        <source>Why? The change goes into the audit trail.</source>
        <translation>原因？此更改将记入审计日志。</translation>
    </message>
</context>
<context>
    <name>GpuDialog</name>
    <message>
        <location filename="../../ui/kit/forms.py" line="116"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="79"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="267"/>
        <source>Changed by someone else</source>
        <translation>记录已被他人修改</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="70"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="49"/>
        <source>Edit %1</source>
        <translation>编辑%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="288"/>
        <source>From</source>
        <translation>自</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="97"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="99"/>
        <source>History (%1)</source>
        <translation>历史（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="303"/>
        <source>Lifecycle (%1)</source>
        <translation>生命周期（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="49"/>
        <source>New %1</source>
        <translation>新建%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="289"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="268"/>
        <source>Reload the record now? Your edits will be lost.</source>
        <translation>现在重新加载该记录？您的修改将丢失。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="78"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="148"/>
        <source>This record no longer exists.</source>
        <translation>该记录已不存在。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="288"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="288"/>
        <source>To</source>
        <translation>至</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="289"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="203"/>
        <source>a number, e.g. 12.5</source>
        <translation>请输入数字，例如 12.5</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="195"/>
        <source>a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="177"/>
        <source>choose one of the listed entries</source>
        <translation>请从列表中选择</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="140"/>
        <source>leave empty to keep</source>
        <translation>留空则不修改</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="211"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>GpuSlotGrid</name>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="193"/>
        <source>%1 installed into slot %2.</source>
        <translation>%1 已装入槽位 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="211"/>
        <source>%1 moved from slot %2 to slot %3.</source>
        <translation>%1 已从槽位 %2 移到槽位 %3。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="106"/>
        <source>%1 of %2 slots hold a GPU.</source>
        <translation>%2 个槽位中有 %1 个已装 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="201"/>
        <source>%1 removed from slot %2 to stock.</source>
        <translation>%1 已从槽位 %2 拆下入库。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="125"/>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="169"/>
        <source>Changed by someone else: %1 The slots were reloaded.</source>
        <translation>记录已被他人修改：%1 已重新载入槽位。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="48"/>
        <source>From stock</source>
        <translation>库存 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="54"/>
        <source>Install into slot</source>
        <translation>装入槽位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="70"/>
        <source>Move</source>
        <translation>变更</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="66"/>
        <source>Move to slot</source>
        <translation>移到槽位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="78"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="61"/>
        <source>Remove to stock</source>
        <translation>拆下入库</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="118"/>
        <source>Slot %1</source>
        <translation>槽位 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="102"/>
        <source>This device no longer exists.</source>
        <translation>该设备已不存在。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="108"/>
        <source>This server takes %1 GPUs.</source>
        <translation>该服务器使用 %1 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/gpuslots.py" line="81"/>
        <source>goes into the audit trail</source>
        <translation>将记入审计日志</translation>
    </message>
</context>
<context>
    <name>HandoverDialog</name>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="142"/>
        <source>Awaiting handover</source>
        <translation>待交付</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="180"/>
        <source>Choose an item.</source>
        <translation>请选择一个条目。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="169"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="164"/>
        <source>Evidence *</source>
        <translation>凭据 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="160"/>
        <source>Handed over at (Asia/Shanghai)</source>
        <translation>交付时间（北京时间）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="153"/>
        <source>Items</source>
        <translation>条目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="168"/>
        <source>Record handover</source>
        <translation>记录交付</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="163"/>
        <source>evidence: signed handover form, ticket, who received it</source>
        <translation>凭据：签字交接单、工单号、接收人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/dialogs.py" line="148"/>
        <source>planned %1</source>
        <translation>计划 %1</translation>
    </message>
</context>
<context>
    <name>HistoryDialog</name>
    <message>
        <location filename="../../ui/kit/history.py" line="136"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/kit/history.py" line="131"/>
        <source>History: %1</source>
        <translation>历史：%1</translation>
    </message>
</context>
<context>
    <name>HistoryView</name>
    <message>
        <location filename="../../ui/kit/history.py" line="97"/>
        <source>%1 of %2 events, newest first</source>
        <translation>%1 / 共 %2 条事件，最新在前</translation>
    </message>
    <message>
        <location filename="../../ui/kit/history.py" line="31"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../ui/kit/history.py" line="32"/>
        <source>Changes</source>
        <translation>变更</translation>
    </message>
    <message>
        <location filename="../../ui/kit/history.py" line="46"/>
        <source>Event detail…</source>
        <translation>事件详情…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/history.py" line="98"/>
        <source>No audit events for this record.</source>
        <translation>该记录没有审计事件。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/history.py" line="42"/>
        <source>Older events</source>
        <translation>更早的事件</translation>
    </message>
    <message>
        <location filename="../../ui/kit/history.py" line="32"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/kit/history.py" line="31"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/kit/history.py" line="31"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
</context>
<context>
    <name>HolidayYearDialog</name>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="77"/>
        <source>%1: %2 days off, %3 make-up working days; source %4</source>
        <translation>%1 年：放假 %2 天，调休上班 %3 天；来源 %4</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="79"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="22"/>
        <source>Add a holiday year</source>
        <translation>添加节假日年度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="39"/>
        <source>Add the year</source>
        <translation>添加该年度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="27"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="34"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="34"/>
        <source>Day</source>
        <translation>安排</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="83"/>
        <source>Day off</source>
        <translation>放假</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="34"/>
        <source>Holiday</source>
        <translation>节日</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="59"/>
        <source>Holiday year</source>
        <translation>节假日年度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="59"/>
        <source>JSON (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="47"/>
        <source>Public holidays and make-up working days as the State Council publishes them (the format of resources/holidays_cn). A day already on record is updated.</source>
        <translation>国务院公布的法定节假日和调休上班日（resources/holidays_cn 的格式）。已登记的日期将被更新。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="83"/>
        <source>Working day (调休)</source>
        <translation>调休上班</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/holidays.py" line="25"/>
        <source>a holiday-cn JSON file, e.g. 2028.json</source>
        <translation>holiday-cn JSON 文件，例如 2028.json</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="125"/>
        <source>%1 rows, %2 with problems (marked red). Fix the file and preview again; nothing is imported while a row is bad.</source>
        <translation>共 %1 行，其中 %2 行有问题（红色标出）。请修改文件后重新预览；存在错误行时不会导入任何数据。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="129"/>
        <source>%1 rows, all good. Press Import to write them.</source>
        <translation>共 %1 行，全部正确。点击“导入”写入。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="104"/>
        <source>Cannot read the file: %1</source>
        <translation>无法读取文件：%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="58"/>
        <source>Choose file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="77"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="75"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="55"/>
        <source>Import %1</source>
        <translation>导入%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="146"/>
        <source>Import cancelled; nothing was imported.</source>
        <translation>导入已取消，未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="90"/>
        <source>Import file</source>
        <translation>导入文件</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="139"/>
        <source>Imported.</source>
        <translation>已导入。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="155"/>
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="149"/>
        <source>Nothing was imported: %1 bad row(s). Preview again to see them.</source>
        <translation>未导入任何数据：%1 行有错误。请重新预览查看。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="60"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="111"/>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="91"/>
        <source>Tables (*.csv *.xlsx);;All (*)</source>
        <translation>表格 (*.csv *.xlsx);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>InvoicingProfileTab</name>
    <message>
        <location filename="../../ui/pages/receivables/profile.py" line="36"/>
        <source>Address and phone</source>
        <translation>地址、电话</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/profile.py" line="37"/>
        <source>Bank and account</source>
        <translation>开户行及账号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/profile.py" line="40"/>
        <source>E-mail for delivery</source>
        <translation>收票邮箱</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/profile.py" line="39"/>
        <source>Fapiao type</source>
        <translation>发票类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/profile.py" line="84"/>
        <source>Invoicing profile</source>
        <translation>开票信息</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/profile.py" line="88"/>
        <source>Invoicing profile not saved</source>
        <translation>开票信息未保存</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/profile.py" line="35"/>
        <source>Name on the fapiao</source>
        <translation>名称（发票抬头）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/profile.py" line="41"/>
        <source>Save &amp;invoicing profile</source>
        <translation>保存开票信息(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/profile.py" line="35"/>
        <source>Taxpayer ID</source>
        <translation>纳税人识别号</translation>
    </message>
</context>
<context>
    <name>ListPage</name>
    <message>
        <location filename="../../ui/kit/listview.py" line="304"/>
        <source>%1 contains (empty: no filter):</source>
        <translation>%1包含（留空表示不筛选）：</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="514"/>
        <source>%1 moved, %2 refused:</source>
        <translation>已变更 %1 个，拒绝 %2 个：</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="179"/>
        <source>%1 of %2</source>
        <translation>%1 / 共 %2</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="181"/>
        <source>%1 rows</source>
        <translation>共 %1 行</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="176"/>
        <source>%1+ of %2, counting…</source>
        <translation>%1+ / 共 %2，正在计数…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="102"/>
        <source>%1: all</source>
        <translation>%1：全部</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="466"/>
        <source>A reason is required.</source>
        <translation>必须填写原因。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="362"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="109"/>
        <source>Clear filters</source>
        <translation>清除筛选</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="332"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="200"/>
        <source>Could not read the list: %1</source>
        <translation>无法读取列表：%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="527"/>
        <source>Excel (*.xlsx);;CSV (*.csv)</source>
        <translation>Excel (*.xlsx);;CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="526"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="361"/>
        <source>Export selection</source>
        <translation>导出所选</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="333"/>
        <source>Export selection…</source>
        <translation>导出所选…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="539"/>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="152"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="88"/>
        <source>Filter (Ctrl+F): code, name, serial, customer…</source>
        <translation>筛选（Ctrl+F）：编码、名称、序列号、客户…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="303"/>
        <source>Filter by %1</source>
        <translation>按%1筛选</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="257"/>
        <source>Filtered by %1</source>
        <translation>筛选条件：%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="187"/>
        <source>Filtering %1 rows…</source>
        <translation>正在筛选 %1 行…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="331"/>
        <source>History…</source>
        <translation>历史…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="154"/>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="151"/>
        <source>Lifecycle move…</source>
        <translation>生命周期变更…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="516"/>
        <source>Moving GPUs…</source>
        <translation>正在变更 GPU 状态…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="146"/>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="312"/>
        <source>No records match these filters. Clear or change them to see more.</source>
        <translation>没有符合这些筛选条件的记录。清除或修改筛选条件以查看更多。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="313"/>
        <source>Nothing here yet.</source>
        <translation>这里还没有记录。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="147"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="155"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="149"/>
        <source>Retire</source>
        <translation>退役</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="461"/>
        <source>Retire %1 selected record(s)? This is recorded in the audit trail.
Reason:</source>
        <translation>确定退役所选 %1 条记录？此操作将记入审计日志。
原因：</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="475"/>
        <source>Retiring…</source>
        <translation>正在退役…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="513"/>
        <source>Some GPUs were not moved</source>
        <translation>部分 GPU 未变更</translation>
    </message>
    <message>
        <location filename="../../ui/kit/listview.py" line="187"/>
        <source>Sorting %1 rows…</source>
        <translation>正在排序 %1 行…</translation>
    </message>
</context>
<context>
    <name>LoginDialog</name>
    <message>
        <location filename="../../ui/shell/startup.py" line="118"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="101"/>
        <source>Database: %1</source>
        <translation>数据库：%1</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="99"/>
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="108"/>
        <source>Login</source>
        <translation>登录名</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="130"/>
        <source>Login failed: unknown user, disabled account or wrong password.</source>
        <translation>登录失败：用户不存在、账号已停用或密码错误。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/startup.py" line="109"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="278"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="295"/>
        <source>About IDC console</source>
        <translation>关于 IDC 管理控制台</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="280"/>
        <source>About IDC console…</source>
        <translation>关于 IDC 管理控制台…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="319"/>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <source>Billing</source>
        <translation>账单</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="228"/>
        <source>Capacity of %1</source>
        <translation>%1 容量报告</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="322"/>
        <source>Change my password…</source>
        <translation>修改我的密码…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="115"/>
        <source>Choose a rack in the list first</source>
        <translation>请先在列表中选择机柜</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="221"/>
        <source>Choose a rack in the list first.</source>
        <translation>请先在列表中选择机柜。</translation>
    </message>
    <message>
        <source>Contracts</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="37"/>
        <source>Coverage</source>
        <translation>区域覆盖</translation>
    </message>
    <message>
        <source>Cross-connects</source>
        <translation>交叉连接</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Dashboard</source>
        <translation>总览</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="292"/>
        <source>Data directory</source>
        <translation>数据目录</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="290"/>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="304"/>
        <source>Database: %1</source>
        <translation>数据库：%1</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="86"/>
        <source>Elevation</source>
        <translation>机柜立面</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="109"/>
        <source>Find free U…</source>
        <translation>查找空闲 U 位…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="192"/>
        <source>Fleet report PDF…</source>
        <translation>GPU 资产报告 PDF…</translation>
    </message>
    <message>
        <source>GPU clusters</source>
        <translation>GPU 集群</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="236"/>
        <source>GPU fleet report</source>
        <translation>GPU 资产报告</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 卡</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="42"/>
        <source>IDC console</source>
        <translation>IDC 管理控制台</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="197"/>
        <source>Import device types…</source>
        <translation>导入设备型号…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="291"/>
        <source>Log file</source>
        <translation>日志文件</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="326"/>
        <source>Log out / switch user…</source>
        <translation>注销 / 切换用户…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="202"/>
        <source>Open a ticket for this…</source>
        <translation>为此创建工单…</translation>
    </message>
    <message>
        <source>Operations</source>
        <translation>运维工单</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="94"/>
        <source>Power</source>
        <translation>配电</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="226"/>
        <source>Rack sheet %1</source>
        <translation>机柜图 %1</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="103"/>
        <source>Rack sheet PDF…</source>
        <translation>机柜图 PDF…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="221"/>
        <source>Racks</source>
        <translation>机柜数</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="396"/>
        <source>Read replica %1 s behind</source>
        <translation>只读副本落后 %1 秒</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="394"/>
        <source>Read replica unavailable: reading from the primary</source>
        <translation>只读副本不可用：改从主库读取</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="90"/>
        <source>Room</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="242"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="106"/>
        <source>Site capacity PDF…</source>
        <translation>站点容量 PDF…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="37"/>
        <source>Site map</source>
        <translation>站点分布图</translation>
    </message>
    <message>
        <source>Sites &amp; coverage</source>
        <translation>站点与覆盖</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="306"/>
        <source>User: %1 (%2)</source>
        <translation>用户：%1（%2）</translation>
    </message>
    <message>
        <source>Users &amp; settings</source>
        <translation>用户与设置</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="271"/>
        <source>Users &amp;&amp; settings</source>
        <translation>用户与设置</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="289"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../ui/shell/mainwindow.py" line="441"/>
        <source>Your password was changed.</source>
        <translation>您的密码已修改。</translation>
    </message>
</context>
<context>
    <name>MaintenanceTab</name>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="187"/>
        <source>%1 affects %2 customer(s)</source>
        <translation>%1 影响 %2 个客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="254"/>
        <source>Cancel %1</source>
        <translation>取消 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="84"/>
        <source>Cancel…</source>
        <translation>取消…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="206"/>
        <source>Choose a maintenance window first</source>
        <translation>请先选择一个维护窗口</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="216"/>
        <source>Choose an affected customer first</source>
        <translation>请先选择一个受影响的客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="78"/>
        <source>Confirm and give notice</source>
        <translation>确认并发出通知</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="62"/>
        <source>Contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="194"/>
        <source>Cross-connect</source>
        <translation>交叉连接</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="62"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="60"/>
        <source>Customers</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="193"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="146"/>
        <source>Emergency</source>
        <translation>紧急</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="60"/>
        <source>Ends</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="51"/>
        <source>Every open window</source>
        <translation>全部未结束窗口</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="52"/>
        <source>Every window</source>
        <translation>全部窗口</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="62"/>
        <source>Impact</source>
        <translation>影响</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="146"/>
        <source>In time</source>
        <translation>按期通知</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="147"/>
        <source>Late</source>
        <translation>通知过晚</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="284"/>
        <source>Maintenance notice %1</source>
        <translation>维护通知 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="190"/>
        <source>No maintenance window in this view</source>
        <translation>此视图中没有维护窗口</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="147"/>
        <source>Not given yet</source>
        <translation>尚未通知</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="61"/>
        <source>Notice</source>
        <translation>通知</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="62"/>
        <source>Object</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="219"/>
        <source>Plan maintenance…</source>
        <translation>计划维护…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="86"/>
        <source>Print notice…</source>
        <translation>打印维护通知…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="193"/>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="59"/>
        <source>Reference</source>
        <translation>流水号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="53"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="55"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="59"/>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="59"/>
        <source>Starts</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="59"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="88"/>
        <source>The maintenance notice of the customer chosen below (Ctrl+P)</source>
        <translation>下方所选客户的维护通知（Ctrl+P）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="50"/>
        <source>Today and the next 7 days</source>
        <translation>今天及未来 7 天</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="63"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="255"/>
        <source>Why is the work cancelled? (the customers were told of it)</source>
        <translation>为何取消维护？（客户已收到通知）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="60"/>
        <source>Work</source>
        <translation>维护内容</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="82"/>
        <source>Work completed</source>
        <translation>维护完成</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="80"/>
        <source>Work started</source>
        <translation>维护开始</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="60"/>
        <source>Worked on</source>
        <translation>维护对象</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/maintenance.py" line="61"/>
        <source>Worst impact</source>
        <translation>最严重影响</translation>
    </message>
</context>
<context>
    <name>MoveDeviceDialog</name>
    <message>
        <location filename="../../ui/pages/devicemove.py" line="36"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/devicemove.py" line="44"/>
        <source>Give a reason: it goes into the device's history and the audit trail.</source>
        <translation>请填写原因：它将记入设备历史和审计日志。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/devicemove.py" line="35"/>
        <source>Move</source>
        <translation>变更</translation>
    </message>
    <message>
        <location filename="../../ui/pages/devicemove.py" line="17"/>
        <source>Move %1</source>
        <translation>移动 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/devicemove.py" line="20"/>
        <source>Move %1 in rack %2 from %3 to %4?</source>
        <translation>将 %1 在机柜 %2 中从 %3 移到 %4？</translation>
    </message>
    <message>
        <location filename="../../ui/pages/devicemove.py" line="28"/>
        <source>Reason *</source>
        <translation>原因 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/devicemove.py" line="27"/>
        <source>goes into the audit trail</source>
        <translation>将记入审计日志</translation>
    </message>
</context>
<context>
    <name>NewTicketDialog</name>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="557"/>
        <source>%1 has no e-mail address on file</source>
        <translation>%1 没有登记电子邮件地址</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="555"/>
        <source>%1 has no phone number on file</source>
        <translation>%1 没有登记电话号码</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="532"/>
        <source>(choose who raised it)</source>
        <translation>（请选择报障人）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="532"/>
        <source>(no contacts)</source>
        <translation>（无联系人）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="474"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="518"/>
        <source>Concerns</source>
        <translation>涉及对象</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="514"/>
        <source>Contact</source>
        <translation>联系人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="512"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="519"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="510"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="460"/>
        <source>New ticket</source>
        <translation>新建工单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="511"/>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="517"/>
        <source>Remote-hands task</source>
        <translation>远程协助任务</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="516"/>
        <source>Reported at</source>
        <translation>报障时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="513"/>
        <source>Reported by</source>
        <translation>报障方式</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="509"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="496"/>
        <source>When the customer reported it (YYYY-MM-DD HH:MM): the SLA clocks start there</source>
        <translation>客户报障的时间（YYYY-MM-DD HH:MM）：SLA 计时从此开始</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="567"/>
        <source>a report cannot come from the future</source>
        <translation>报障时间不能晚于现在</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="551"/>
        <source>choose which of the customer's contacts raised it</source>
        <translation>请选择是客户的哪位联系人报的障</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="565"/>
        <source>write when it was reported as YYYY-MM-DD HH:MM</source>
        <translation>报障时间请写成 YYYY-MM-DD HH:MM</translation>
    </message>
</context>
<context>
    <name>OncallTab</name>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="167"/>
        <source>Escalated to the secondary</source>
        <translation>已升级至副值班</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="169"/>
        <source>Escalated to the site manager</source>
        <translation>已升级至机房经理</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="107"/>
        <source>Handover note</source>
        <translation>交接说明</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="118"/>
        <source>Mark as seen</source>
        <translation>标为已读</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="114"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="126"/>
        <source>My notifications</source>
        <translation>我的通知</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="123"/>
        <source>On call this week</source>
        <translation>本周值班</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="106"/>
        <source>Phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="105"/>
        <source>Primary</source>
        <translation>主值班</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="106"/>
        <source>Secondary</source>
        <translation>副值班</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="105"/>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="106"/>
        <source>Site manager</source>
        <translation>机房经理</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="105"/>
        <source>Week of</source>
        <translation>周起始</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="114"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="114"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>Operation</name>
    <message>
        <location filename="../../ui/shell/operations.py" line="232"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/shell/operations.py" line="232"/>
        <source>Working…</source>
        <translation>处理中…</translation>
    </message>
</context>
<context>
    <name>OperationsPage</name>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="54"/>
        <source>Add a year of China's holidays (Ctrl+Shift+H)</source>
        <translation>添加一年的中国节假日（Ctrl+Shift+H）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="51"/>
        <source>Holiday year…</source>
        <translation>节假日年度…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="47"/>
        <source>Maintenance</source>
        <translation>维护</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="42"/>
        <source>On call</source>
        <translation>值班</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="41"/>
        <source>Queue</source>
        <translation>工单队列</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="43"/>
        <source>SLA credits</source>
        <translation>SLA 服务赔偿</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="55"/>
        <source>SLA targets…</source>
        <translation>SLA 目标…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="59"/>
        <source>Targets per priority and the calendars' business hours (Ctrl+Shift+L)</source>
        <translation>各优先级的目标与日历的工作时间（Ctrl+Shift+L）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/__init__.py" line="48"/>
        <source>Visitors</source>
        <translation>访客</translation>
    </message>
</context>
<context>
    <name>OrderDialog</name>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="42"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="48"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="245"/>
        <source>Carrier or cloud</source>
        <translation>运营商或云服务商</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="251"/>
        <source>Circuit id</source>
        <translation>电路编号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="252"/>
        <source>Contract (number, item position)</source>
        <translation>合同（编号, 项目序号）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="236"/>
        <source>Customer *</source>
        <translation>客户 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="242"/>
        <source>Far end *</source>
        <translation>对端 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="247"/>
        <source>Far-end port</source>
        <translation>对端端口</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="248"/>
        <source>Medium *</source>
        <translation>介质 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="241"/>
        <source>Meet-me room panel/port</source>
        <translation>汇聚机房配线架/端口</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="258"/>
        <source>Order</source>
        <translation>下单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="234"/>
        <source>Order a cross-connect</source>
        <translation>交叉连接下单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="254"/>
        <source>Ordered on *</source>
        <translation>下单日期 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="246"/>
        <source>Other customer</source>
        <translation>对端客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="239"/>
        <source>Patch panel *</source>
        <translation>配线架 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="240"/>
        <source>Port *</source>
        <translation>端口 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="237"/>
        <source>Rack *</source>
        <translation>机柜 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="238"/>
        <source>SITE/ROOM/RACK or asset tag</source>
        <translation>站点/机房/机柜 或资产标签</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="255"/>
        <source>Work note</source>
        <translation>工作备注</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="276"/>
        <source>name the customer's rack</source>
        <translation>请填写客户的机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="285"/>
        <source>the contract has items 1 to %1</source>
        <translation>该合同的项目序号为 1 至 %1</translation>
    </message>
</context>
<context>
    <name>OverdueCard</name>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="109"/>
        <source>%1 customer(s), ¥%2</source>
        <translation>%1 个客户，¥%2</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="43"/>
        <source>&amp;Keep serving…</source>
        <translation>继续服务(&amp;K)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="41"/>
        <source>&amp;Suspend…</source>
        <translation>暂停服务(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="36"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="36"/>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="36"/>
        <source>Decision</source>
        <translation>处理决定</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="128"/>
        <source>Decision on %1</source>
        <translation>对 %1 的处理决定</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="36"/>
        <source>Overdue</source>
        <translation>逾期金额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="107"/>
        <source>Overdue more than %1 days: suspension proposals</source>
        <translation>逾期超过 %1 天：建议暂停服务</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="123"/>
        <source>Select a customer in the list first.</source>
        <translation>请先在列表中选择一个客户。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="129"/>
        <source>Why? (recorded in the audit trail)</source>
        <translation>原因（记入审计日志）：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="111"/>
        <source>keep serving</source>
        <translation>继续服务</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/overdue.py" line="111"/>
        <source>suspend</source>
        <translation>暂停服务</translation>
    </message>
</context>
<context>
    <name>PagedTableModel</name>
    <message>
        <location filename="../../ui/kit/tables.py" line="393"/>
        <source>Warranty ends %1, in %2 days (highlighted within %3 days)</source>
        <translation>保修将于 %1 到期，还剩 %2 天（%3 天内到期时标出）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/tables.py" line="390"/>
        <source>Warranty expired %1 (%2 days ago)</source>
        <translation>保修已于 %1 到期（%2 天前）</translation>
    </message>
</context>
<context>
    <name>PagedTableView</name>
    <message>
        <location filename="../../ui/kit/tableview.py" line="183"/>
        <source>Filter by “%1”…</source>
        <translation>按“%1”筛选…</translation>
    </message>
</context>
<context>
    <name>PaymentsSection</name>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="44"/>
        <source>&amp;Allocate</source>
        <translation>核销(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="40"/>
        <source>&amp;Record receipt</source>
        <translation>登记收款(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="42"/>
        <source>Allocate the selected payment</source>
        <translation>核销所选收款</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="51"/>
        <source>Allocated</source>
        <translation>已核销</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="38"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="49"/>
        <source>Credit code</source>
        <translation>统一社会信用代码</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="38"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="38"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="34"/>
        <source>Keep as credit (do not allocate)</source>
        <translation>暂不核销（计入预收余额）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="49"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="39"/>
        <source>Method</source>
        <translation>付款方式</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="50"/>
        <source>Payer</source>
        <translation>付款户名</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="49"/>
        <source>Payment</source>
        <translation>收款</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="86"/>
        <source>Payment %1 reversed.</source>
        <translation>收款 %1 已冲回。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="47"/>
        <source>Re&amp;verse</source>
        <translation>冲回(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="47"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="37"/>
        <source>Record a bank receipt</source>
        <translation>登记银行收款</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="52"/>
        <source>Recorded by</source>
        <translation>登记人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="39"/>
        <source>Reference</source>
        <translation>流水号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="80"/>
        <source>Reverse payment</source>
        <translation>冲回收款</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="81"/>
        <source>Reverse payment %1 by a counter-entry? Its statements are open again.</source>
        <translation>以反向分录冲回收款 %1？其核销的对账单将重新变为未收。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="46"/>
        <source>Reverse the selected payment</source>
        <translation>冲回所选收款</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="51"/>
        <source>Reverses</source>
        <translation>冲回/冲销</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="79"/>
        <source>Say why the payment is reversed.</source>
        <translation>请填写冲回原因。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="58"/>
        <source>Select a payment in the list first.</source>
        <translation>请先在列表中选择一笔收款。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="43"/>
        <source>Statement no.</source>
        <translation>对账单号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="52"/>
        <source>Statements</source>
        <translation>账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="52"/>
        <source>Unallocated</source>
        <translation>未核销</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="41"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="29"/>
        <source>bank reference (流水号)</source>
        <translation>银行流水号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="27"/>
        <source>credit code or name</source>
        <translation>信用代码或名称</translation>
    </message>
</context>
<context>
    <name>PdfPreviewDialog</name>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="136"/>
        <source>%1 cannot be shown: %2</source>
        <translation>无法显示 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="80"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="269"/>
        <source>Could not save: %1</source>
        <translation>无法保存：%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="74"/>
        <source>Fit width</source>
        <translation>适合宽度</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="67"/>
        <source>Next page</source>
        <translation>下一页</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="121"/>
        <source>Open in viewer…</source>
        <translation>用查看器打开…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="261"/>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="66"/>
        <source>Previous page</source>
        <translation>上一页</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="79"/>
        <source>Print…</source>
        <translation>打印…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="260"/>
        <source>Save PDF as</source>
        <translation>PDF 另存为</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="78"/>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="114"/>
        <source>The PDF preview needs Qt's PDF module (the PySide6_Pdf package). You can still save the document or open it in your PDF viewer.</source>
        <translation>PDF 预览需要 Qt 的 PDF 模块（PySide6_Pdf）。您仍可保存文档或用 PDF 查看器打开。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="229"/>
        <source>The printer could not be started.</source>
        <translation>无法启动打印机。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="75"/>
        <source>Whole page</source>
        <translation>整页</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="72"/>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="71"/>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="167"/>
        <source>of %1</source>
        <translation>/ %1</translation>
    </message>
</context>
<context>
    <name>PlaceDeviceDialog</name>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="42"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="48"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="100"/>
        <source>Device type *</source>
        <translation>设备型号 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="109"/>
        <source>Face</source>
        <translation>朝向</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="101"/>
        <source>Name *</source>
        <translation>名称 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="111"/>
        <source>Override the power budget</source>
        <translation>超出功率预算</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="103"/>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="118"/>
        <source>Place</source>
        <translation>放置</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="99"/>
        <source>Place a device in %1</source>
        <translation>在 %1 放置设备</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="115"/>
        <source>Place even if the rack's typical power would exceed its capacity</source>
        <translation>即使机柜典型功耗超出容量也放置</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="110"/>
        <source>Position (lowest U)</source>
        <translation>位置（最低 U 位）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="111"/>
        <source>Power</source>
        <translation>功率</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="112"/>
        <source>Reason for the override</source>
        <translation>超限原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="102"/>
        <source>Serial</source>
        <translation>序列号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="128"/>
        <source>U%1 is leased to %2: only %2's devices go there</source>
        <translation>U%1 已租给 %2：只能放入 %2 的设备</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="137"/>
        <source>a number, e.g. 12.5</source>
        <translation>请输入数字，例如 12.5</translation>
    </message>
</context>
<context>
    <name>PlanMaintenanceDialog</name>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="45"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="74"/>
        <source>Contact</source>
        <translation>联系人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="71"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="57"/>
        <source>Emergency (cannot wait for the notice period)</source>
        <translation>紧急维护（不能等待通知期）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="69"/>
        <source>Ends</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="66"/>
        <source>Object</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="37"/>
        <source>Plan maintenance</source>
        <translation>计划维护</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="67"/>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="68"/>
        <source>Starts</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="73"/>
        <source>Why it cannot wait</source>
        <translation>不能等待的原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="70"/>
        <source>Work</source>
        <translation>维护内容</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="65"/>
        <source>Worked on</source>
        <translation>维护对象</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="102"/>
        <source>choose what is worked on from the list</source>
        <translation>请从列表中选择维护对象</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="53"/>
        <source>e.g. UPS-A battery replacement</source>
        <translation>例如：UPS-A 电池更换</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/planform.py" line="94"/>
        <source>the UPS's name, e.g. UPS-A</source>
        <translation>UPS 名称，例如 UPS-A</translation>
    </message>
</context>
<context>
    <name>PowerView</name>
    <message>
        <location filename="../../ui/widgets/power_bar.py" line="80"/>
        <source>%1 %2 A: %3 kW now, %4 kW if the other side is lost; limit %5 kW (%6%)</source>
        <translation>%1 %2 A：当前 %3 kW，另一路失电时 %4 kW；限值 %5 kW（%6%）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="122"/>
        <source>%1: %2 kW typical · N redundancy: %3</source>
        <translation>%1：典型功耗 %2 kW · N 冗余：%3</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/power_bar.py" line="77"/>
        <source>%1: %2 of %3 kW (%4%)</source>
        <translation>%1：%2 / %3 kW（%4%）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/pages/power.py" line="132"/>
        <source>%n device(s) not plugged into a PDU: counted on every feed of the rack</source>
        <translation><numerusform>%n 台设备未接入 PDU：按本柜所有回路均摊计算</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/power_bar.py" line="92"/>
        <source>%n feed(s) over the limit</source>
        <translation><numerusform>%n 路回路超限</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="77"/>
        <source>A kW</source>
        <translation>A 路 kW</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="173"/>
        <source>Amperage</source>
        <translation>电流</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="77"/>
        <source>B kW</source>
        <translation>B 路 kW</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="63"/>
        <source>Breaker</source>
        <translation>断路器</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="104"/>
        <source>Choose a feed first</source>
        <translation>请先选择一条馈线</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="71"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="63"/>
        <source>Feed</source>
        <translation>回路</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/power_bar.py" line="41"/>
        <source>Feed %1 (%2) carries %3 kW, over %4% of its %5 A breaker (%6 kW)</source>
        <translation>回路 %1（%2）负载 %3 kW，超过其 %5 A 断路器的 %4%（%6 kW）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="174"/>
        <source>Feeds</source>
        <translation>回路</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="64"/>
        <source>Limit kW</source>
        <translation>限值 kW</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="63"/>
        <source>Load %</source>
        <translation>负载率 %</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="63"/>
        <source>Load kW</source>
        <translation>负载 kW</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="179"/>
        <source>Max utilisation</source>
        <translation>最大利用率</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="77"/>
        <source>N redundancy</source>
        <translation>N 冗余</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/power_bar.py" line="90"/>
        <source>N redundancy: %1</source>
        <translation>N 冗余：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="64"/>
        <source>On failover kW</source>
        <translation>切换后 kW</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="85"/>
        <source>Open a ticket for this feed…</source>
        <translation>为此馈线开工单…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="71"/>
        <source>Outlet</source>
        <translation>插座</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="71"/>
        <source>PDU</source>
        <translation>PDU 配电单元</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="173"/>
        <source>Panel</source>
        <translation>配电柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="177"/>
        <source>Panels</source>
        <translation>配电柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="173"/>
        <source>Phase</source>
        <translation>相制</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="168"/>
        <source>Power panels and feeds</source>
        <translation>配电柜与回路</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="80"/>
        <source>Power panels and feeds…</source>
        <translation>配电柜与回路…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="77"/>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="173"/>
        <source>Room</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="139"/>
        <source>Room %1: %2 kW; redundant %3, failing %4, one side only %5, no feeds %6</source>
        <translation>机房 %1：%2 kW；冗余满足 %3，不满足 %4，仅单路 %5，无回路 %6</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="63"/>
        <source>Side</source>
        <translation>路别</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="173"/>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="64"/>
        <source>Sold to</source>
        <translation>售予合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="63"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="71"/>
        <source>Supply</source>
        <translation>电源</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="178"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="174"/>
        <source>UPS</source>
        <translation>UPS 不间断电源</translation>
    </message>
    <message>
        <location filename="../../ui/pages/power.py" line="173"/>
        <source>Voltage</source>
        <translation>电压</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/power_bar.py" line="52"/>
        <source>With %1 lost, %2 kW of devices plugged into it only would go dark</source>
        <translation>%1失电时，仅接该路的设备 %2 kW 将断电</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/power_bar.py" line="48"/>
        <source>With %1 lost, feed %2 would carry %3 kW, over its limit of %4 kW</source>
        <translation>%1失电时，回路 %2 将承载 %3 kW，超过限值 %4 kW</translation>
    </message>
</context>
<context>
    <name>QueueTab</name>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="198"/>
        <source> · the first %1 by SLA due</source>
        <translation> · 按 SLA 到期显示前 %1 张</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="195"/>
        <source>%1 tickets, %2 P1, %3 breached</source>
        <translation>共 %1 张工单，P1 %2 张，已超时 %3 张</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="66"/>
        <source>Also resolved and closed</source>
        <translation>含已解决和已关闭</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="76"/>
        <source>Assignee</source>
        <translation>处理人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="75"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="75"/>
        <source>Due</source>
        <translation>到期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="63"/>
        <source>My tickets</source>
        <translation>我的工单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="59"/>
        <source>New ticket…</source>
        <translation>新建工单…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="74"/>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="68"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="74"/>
        <source>SLA</source>
        <translation>SLA</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="75"/>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="74"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="74"/>
        <source>Ticket</source>
        <translation>工单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="75"/>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="76"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="210"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
</context>
<context>
    <name>RackElevationView</name>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="84"/>
        <source>%1 (full depth)</source>
        <translation>%1（全深）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="234"/>
        <source>%1 · leased to %2</source>
        <translation>%1 · 租给 %2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="118"/>
        <source>%1, %2 face%3</source>
        <translation>%1，%2面%3</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/rack_elevation.py" line="259"/>
        <source>%n U free</source>
        <translation><numerusform>空闲 %n U</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="119"/>
        <source>, full depth</source>
        <translation>，全深</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="427"/>
        <source>Cancel the reservation for %1 (U%2–U%3)…</source>
        <translation>取消 %1 的预留（U%2–U%3）…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="171"/>
        <source>Choose a rack to see its elevation</source>
        <translation>选择机柜以查看立面图</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="79"/>
        <source>Fleet</source>
        <translation>自有</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="253"/>
        <source>Front</source>
        <translation>前面</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="242"/>
        <source>Leased %1 U · reserved %2 U · used %3 U · free %4 U</source>
        <translation>已租 %1 U · 预留 %2 U · 已用 %3 U · 空闲 %4 U</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="298"/>
        <source>Leased to %1, U%2–U%3, %4 to %5</source>
        <translation>租给 %1，U%2–U%3，%4 至 %5</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="313"/>
        <source>Leased: %1</source>
        <translation>已租：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="214"/>
        <source>Not mounted (0U or no position): %1</source>
        <translation>未上架（0U 或无位置）：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="376"/>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="117"/>
        <source>Owner: %1</source>
        <translation>所有者：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="397"/>
        <source>Place a device at U%1 (%2)…</source>
        <translation>在 U%1（%2）放置设备…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="396"/>
        <source>Place a device of %3 at U%1 (%2)…</source>
        <translation>在 U%1（%2）放置 %3 的设备…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="332"/>
        <source>Power: %1 of %2 kW typical (%3%)</source>
        <translation>功率：典型 %1 / %2 kW（%3%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="253"/>
        <source>Rear</source>
        <translation>后面</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="401"/>
        <source>Reserve U%1 (%2)…</source>
        <translation>预留 U%1（%2）…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="405"/>
        <source>Reserve the free block U%1–U%2 (%3)…</source>
        <translation>预留空闲区段 U%1–U%2（%3）…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="275"/>
        <source>Reserved for %1, U%2–U%3, %4 to %5</source>
        <translation>为 %1 预留，U%2–U%3，%4 至 %5</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="278"/>
        <source>Reserved: %1</source>
        <translation>已预留：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="120"/>
        <source>Status: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="121"/>
        <source>Typical power: %1 W</source>
        <translation>典型功率：%1 W</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="302"/>
        <source>cage %1</source>
        <translation>笼位 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="391"/>
        <source>front</source>
        <translation>前面</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="274"/>
        <source>open-ended</source>
        <translation>不定期</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="391"/>
        <source>rear</source>
        <translation>后面</translation>
    </message>
</context>
<context>
    <name>RackPanel</name>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="84"/>
        <source>%1 (full depth)</source>
        <translation>%1（全深）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="234"/>
        <source>%1 · leased to %2</source>
        <translation>%1 · 租给 %2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="118"/>
        <source>%1, %2 face%3</source>
        <translation>%1，%2面%3</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/rack_elevation.py" line="259"/>
        <source>%n U free</source>
        <translation><numerusform>空闲 %n U</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="119"/>
        <source>, full depth</source>
        <translation>，全深</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="518"/>
        <source>Cancel reservation</source>
        <translation>取消预留</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="427"/>
        <source>Cancel the reservation for %1 (U%2–U%3)…</source>
        <translation>取消 %1 的预留（U%2–U%3）…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="496"/>
        <source>Changed by someone else</source>
        <translation>记录已被他人修改</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="171"/>
        <source>Choose a rack to see its elevation</source>
        <translation>选择机柜以查看立面图</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="79"/>
        <source>Fleet</source>
        <translation>自有</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="253"/>
        <source>Front</source>
        <translation>前面</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="242"/>
        <source>Leased %1 U · reserved %2 U · used %3 U · free %4 U</source>
        <translation>已租 %1 U · 预留 %2 U · 已用 %3 U · 空闲 %4 U</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="298"/>
        <source>Leased to %1, U%2–U%3, %4 to %5</source>
        <translation>租给 %1，U%2–U%3，%4 至 %5</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="313"/>
        <source>Leased: %1</source>
        <translation>已租：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="531"/>
        <source>Move refused</source>
        <translation>移动被拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="214"/>
        <source>Not mounted (0U or no position): %1</source>
        <translation>未上架（0U 或无位置）：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="376"/>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="117"/>
        <source>Owner: %1</source>
        <translation>所有者：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="397"/>
        <source>Place a device at U%1 (%2)…</source>
        <translation>在 U%1（%2）放置设备…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="396"/>
        <source>Place a device of %3 at U%1 (%2)…</source>
        <translation>在 U%1（%2）放置 %3 的设备…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="332"/>
        <source>Power: %1 of %2 kW typical (%3%)</source>
        <translation>功率：典型 %1 / %2 kW（%3%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="253"/>
        <source>Rear</source>
        <translation>后面</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="525"/>
        <source>Reservation not cancelled</source>
        <translation>预留未取消</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="401"/>
        <source>Reserve U%1 (%2)…</source>
        <translation>预留 U%1（%2）…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="405"/>
        <source>Reserve the free block U%1–U%2 (%3)…</source>
        <translation>预留空闲区段 U%1–U%2（%3）…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="275"/>
        <source>Reserved for %1, U%2–U%3, %4 to %5</source>
        <translation>为 %1 预留，U%2–U%3，%4 至 %5</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="278"/>
        <source>Reserved: %1</source>
        <translation>已预留：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="120"/>
        <source>Status: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="505"/>
        <source>The move failed: %1</source>
        <translation>移动失败：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_block.py" line="121"/>
        <source>Typical power: %1 W</source>
        <translation>典型功率：%1 W</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="519"/>
        <source>Why is the reservation cancelled?</source>
        <translation>取消预留的原因？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="302"/>
        <source>cage %1</source>
        <translation>笼位 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="391"/>
        <source>front</source>
        <translation>前面</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="274"/>
        <source>open-ended</source>
        <translation>不定期</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="391"/>
        <source>rear</source>
        <translation>后面</translation>
    </message>
</context>
<context>
    <name>ReasonDialog</name>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="336"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="348"/>
        <source>Give a reason: it goes into the audit trail.</source>
        <translation>请填写原因：它将记入审计日志。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="335"/>
        <source>OK</source>
        <translation>确定</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="327"/>
        <source>Reason *</source>
        <translation>原因 *</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="327"/>
        <source>Text</source>
        <translation>内容</translation>
    </message>
</context>
<context>
    <name>ReceivablesTabs</name>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="297"/>
        <source>&amp;Deposits</source>
        <translation>押金/预付款(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="297"/>
        <source>&amp;Fapiao</source>
        <translation>发票(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="296"/>
        <source>&amp;Payments</source>
        <translation>收款(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="327"/>
        <source>&amp;Receivables</source>
        <translation>应收账款(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="325"/>
        <source>&amp;Statements</source>
        <translation>对账单(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="298"/>
        <source>A&amp;ging</source>
        <translation>账龄(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="296"/>
        <source>Customer &amp;balance</source>
        <translation>客户余额(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/receivables/tabs.py" line="339"/>
        <source>Fapiao: %1 (¥%2 of ¥%3)</source>
        <translation>开票：%1（已开 ¥%2，应开 ¥%3）</translation>
    </message>
</context>
<context>
    <name>RegionTreePanel</name>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="35"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="99"/>
        <source>Code</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="99"/>
        <source>Covered by</source>
        <translation>覆盖方</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="234"/>
        <source>No region has the code %1.</source>
        <translation>没有代码为 %1 的区域。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="215"/>
        <source>No region matches “%1”.</source>
        <translation>没有匹配“%1”的区域。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="241"/>
        <source>Nobody covers this region, nor any region it lies in.</source>
        <translation>该区域及其上级区域均无覆盖。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="99"/>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="100"/>
        <source>Response</source>
        <translation>响应时间</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="77"/>
        <source>Who serves:</source>
        <translation>由谁服务：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="174"/>
        <source>not covered</source>
        <translation>未覆盖</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="80"/>
        <source>region code or name, e.g. 460108 or 美兰</source>
        <translation>区域代码或名称，例如 460108 或 美兰</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="37"/>
        <source>via %1</source>
        <translation>经由 %1</translation>
    </message>
</context>
<context>
    <name>RegionTreeWidget</name>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="35"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="99"/>
        <source>Code</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="99"/>
        <source>Covered by</source>
        <translation>覆盖方</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="234"/>
        <source>No region has the code %1.</source>
        <translation>没有代码为 %1 的区域。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="215"/>
        <source>No region matches “%1”.</source>
        <translation>没有匹配“%1”的区域。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="241"/>
        <source>Nobody covers this region, nor any region it lies in.</source>
        <translation>该区域及其上级区域均无覆盖。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="99"/>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="100"/>
        <source>Response</source>
        <translation>响应时间</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="77"/>
        <source>Who serves:</source>
        <translation>由谁服务：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="174"/>
        <source>not covered</source>
        <translation>未覆盖</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="80"/>
        <source>region code or name, e.g. 460108 or 美兰</source>
        <translation>区域代码或名称，例如 460108 或 美兰</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="37"/>
        <source>via %1</source>
        <translation>经由 %1</translation>
    </message>
</context>
<context>
    <name>ReserveDialog</name>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="42"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="48"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="159"/>
        <source>Customer *</source>
        <translation>客户 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="162"/>
        <source>Empty: open-ended</source>
        <translation>留空表示长期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="160"/>
        <source>From *</source>
        <translation>开始 *</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="163"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="164"/>
        <source>Reserve</source>
        <translation>预留</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="156"/>
        <source>Reserve units in %1</source>
        <translation>在 %1 预留 U 位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="157"/>
        <source>Units</source>
        <translation>U 位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="161"/>
        <source>Until</source>
        <translation>截止</translation>
    </message>
</context>
<context>
    <name>RoomFloorView</name>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="217"/>
        <source>Cage %1</source>
        <translation>笼位 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="140"/>
        <source>Choose a room to see its floor</source>
        <translation>选择机房以查看平面图</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="190"/>
        <source>Not on the floor plan:</source>
        <translation>不在平面图上：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="219"/>
        <source>leased to %1</source>
        <translation>租给 %1</translation>
    </message>
</context>
<context>
    <name>RoomPanel</name>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="68"/>
        <source>%1 / %2 kW</source>
        <translation>%1 / %2 kW</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/room_view.py" line="315"/>
        <source>%1 / %2 — %n rack(s)</source>
        <translation><numerusform>%1 / %2 — %n 个机柜</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="61"/>
        <source>%1% of %2U</source>
        <translation>%2U 的 %1%</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="340"/>
        <source>50–80%</source>
        <translation>50–80%</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="340"/>
        <source>80–95%</source>
        <translation>80–95%</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="341"/>
        <source>95% and over</source>
        <translation>95% 及以上</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="286"/>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="86"/>
        <source>Devices: %1</source>
        <translation>设备：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="88"/>
        <source>Leased to %1</source>
        <translation>租给 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="90"/>
        <source>Leased units: %1 of %2 (%3)</source>
        <translation>已租 U 位：%1 / %2（%3）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="84"/>
        <source>Power: %1 of %2 kW typical (%3%)</source>
        <translation>功率：典型 %1 / %2 kW（%3%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="64"/>
        <source>Shared: %1 U leased</source>
        <translation>共享：已租 %1 U</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="289"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="82"/>
        <source>Units: %1 of %2 used (%3%)</source>
        <translation>U 位：已用 %1 / %2（%3%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="287"/>
        <source>Utilisation</source>
        <translation>使用率</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="339"/>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="317"/>
        <source>leased %1 U · reserved %2 U · used %3 U · free %4 U</source>
        <translation>已租 %1 U · 预留 %2 U · 已用 %3 U · 空闲 %4 U</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="339"/>
        <source>under 50%</source>
        <translation>低于 50%</translation>
    </message>
</context>
<context>
    <name>RoomView</name>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="68"/>
        <source>%1 / %2 kW</source>
        <translation>%1 / %2 kW</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/room_view.py" line="315"/>
        <source>%1 / %2 — %n rack(s)</source>
        <translation><numerusform>%1 / %2 — %n 个机柜</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="61"/>
        <source>%1% of %2U</source>
        <translation>%2U 的 %1%</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="340"/>
        <source>50–80%</source>
        <translation>50–80%</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="340"/>
        <source>80–95%</source>
        <translation>80–95%</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="341"/>
        <source>95% and over</source>
        <translation>95% 及以上</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="286"/>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="86"/>
        <source>Devices: %1</source>
        <translation>设备：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="88"/>
        <source>Leased to %1</source>
        <translation>租给 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="90"/>
        <source>Leased units: %1 of %2 (%3)</source>
        <translation>已租 U 位：%1 / %2（%3）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="84"/>
        <source>Power: %1 of %2 kW typical (%3%)</source>
        <translation>功率：典型 %1 / %2 kW（%3%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="64"/>
        <source>Shared: %1 U leased</source>
        <translation>共享：已租 %1 U</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="289"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="82"/>
        <source>Units: %1 of %2 used (%3%)</source>
        <translation>U 位：已用 %1 / %2（%3%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="287"/>
        <source>Utilisation</source>
        <translation>使用率</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="339"/>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="317"/>
        <source>leased %1 U · reserved %2 U · used %3 U · free %4 U</source>
        <translation>已租 %1 U · 预留 %2 U · 已用 %3 U · 空闲 %4 U</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="339"/>
        <source>under 50%</source>
        <translation>低于 50%</translation>
    </message>
</context>
<context>
    <name>SearchDialog</name>
    <message>
        <location filename="../../ui/kit/search.py" line="32"/>
        <source>Rack, device, GPU serial, customer, contract, statement…</source>
        <translation>机柜、设备、GPU 序列号、客户、合同、账单…</translation>
    </message>
    <message>
        <location filename="../../ui/kit/search.py" line="29"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../ui/kit/search.py" line="80"/>
        <source>Search failed: %1</source>
        <translation>搜索失败：%1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="188"/>
        <source>(started with another database than the one set below; the setting applies at the next start)</source>
        <translation>（本次启动使用的数据库与下方设置不同；该设置在下次启动时生效）</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="171"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="266"/>
        <source>Connected.</source>
        <translation>连接成功。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="185"/>
        <source>Database in use: %1</source>
        <translation>当前使用的数据库：%1</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="267"/>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="226"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="263"/>
        <source>Give a file or a URL first.</source>
        <translation>请先填写文件或地址。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="217"/>
        <source>Keep the password in the system keyring</source>
        <translation>将密码保存在系统钥匙串中</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="161"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="167"/>
        <source>Language and database changes apply at the next start.</source>
        <translation>语言和数据库的更改将在下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="246"/>
        <source>New database</source>
        <translation>新建数据库</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="204"/>
        <source>New…</source>
        <translation>新建…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="240"/>
        <source>Open database</source>
        <translation>打开数据库</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="203"/>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="166"/>
        <source>PDF font (TrueType)</source>
        <translation>PDF 字体（TrueType）</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="229"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="196"/>
        <source>PostgreSQL server</source>
        <translation>PostgreSQL 服务器</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="240"/>
        <source>SQLite (*.db *.sqlite);;All (*)</source>
        <translation>SQLite (*.db *.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="246"/>
        <source>SQLite (*.db)</source>
        <translation>SQLite (*.db)</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="195"/>
        <source>SQLite file</source>
        <translation>SQLite 文件</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="170"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="149"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="157"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="219"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="275"/>
        <source>The system keyring is not available (%1); the password was not stored. Untick the keyring to be asked for it at each start.</source>
        <translation>系统钥匙串不可用（%1），密码未保存。取消勾选钥匙串后，每次启动时将询问密码。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="228"/>
        <source>URL</source>
        <translation>地址</translation>
    </message>
    <message>
        <location filename="../../ui/shell/dbdialog.py" line="165"/>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
</context>
<context>
    <name>SidePanels</name>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="228"/>
        <source>Capacity of %1</source>
        <translation>%1 容量报告</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="115"/>
        <source>Choose a rack in the list first</source>
        <translation>请先在列表中选择机柜</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="221"/>
        <source>Choose a rack in the list first.</source>
        <translation>请先在列表中选择机柜。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="37"/>
        <source>Coverage</source>
        <translation>区域覆盖</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="86"/>
        <source>Elevation</source>
        <translation>机柜立面</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="109"/>
        <source>Find free U…</source>
        <translation>查找空闲 U 位…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="236"/>
        <source>GPU fleet report</source>
        <translation>GPU 资产报告</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="94"/>
        <source>Power</source>
        <translation>功率</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="226"/>
        <source>Rack sheet %1</source>
        <translation>机柜图 %1</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="103"/>
        <source>Rack sheet PDF…</source>
        <translation>机柜图 PDF…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="221"/>
        <source>Racks</source>
        <translation>机柜数</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="90"/>
        <source>Room</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="106"/>
        <source>Site capacity PDF…</source>
        <translation>站点容量 PDF…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/sidepanels.py" line="37"/>
        <source>Site map</source>
        <translation>站点分布图</translation>
    </message>
</context>
<context>
    <name>SitePlot</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/site_plot.py" line="158"/>
        <source> and %n more</source>
        <translation><numerusform> 等 %n 个</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/site_plot.py" line="138"/>
        <source>%1 serves %2</source>
        <translation>%1 服务 %2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/site_plot.py" line="98"/>
        <source>No sites with coordinates yet</source>
        <translation>暂无带坐标的站点</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/site_plot.py" line="101"/>
        <source>Without latitude/longitude: %1</source>
        <translation>无经纬度：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/site_plot.py" line="217"/>
        <source>solid line: the region's own point; dashed: its city's or province capital's</source>
        <translation>实线：区域自身位置；虚线：所在城市或省会位置</translation>
    </message>
</context>
<context>
    <name>SitePlotView</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/site_plot.py" line="158"/>
        <source> and %n more</source>
        <translation><numerusform> 等 %n 个</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/site_plot.py" line="138"/>
        <source>%1 serves %2</source>
        <translation>%1 服务 %2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/site_plot.py" line="98"/>
        <source>No sites with coordinates yet</source>
        <translation>暂无带坐标的站点</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/site_plot.py" line="101"/>
        <source>Without latitude/longitude: %1</source>
        <translation>无经纬度：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/site_plot.py" line="217"/>
        <source>solid line: the region's own point; dashed: its city's or province capital's</source>
        <translation>实线：区域自身位置；虚线：所在城市或省会位置</translation>
    </message>
</context>
<context>
    <name>SlaAdminDialog</name>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="65"/>
        <source>Acknowledge (min)</source>
        <translation>响应（分钟）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="138"/>
        <source>Business hours</source>
        <translation>工作时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="65"/>
        <source>Calendar</source>
        <translation>日历</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="31"/>
        <source>Calendars</source>
        <translation>日历</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="58"/>
        <source>Contract %1 (%2)</source>
        <translation>合同 %1（%2）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="133"/>
        <source>Follows China's public holidays and make-up working days (调休)</source>
        <translation>遵循中国法定节假日和调休上班日</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="137"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="66"/>
        <source>On site (min)</source>
        <translation>到场（分钟）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="65"/>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="66"/>
        <source>Resolve (min)</source>
        <translation>解决（分钟）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="27"/>
        <source>SLA targets and calendars</source>
        <translation>SLA 目标与日历</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="35"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="55"/>
        <source>Service level: %1</source>
        <translation>服务等级：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="30"/>
        <source>Targets</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="85"/>
        <source>The default of every contract in a region with this coverage level.</source>
        <translation>覆盖等级为此等级的区域内所有合同的默认目标。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/slaadmin.py" line="86"/>
        <source>This contract's own targets override its service level's; a priority left empty keeps following the level.</source>
        <translation>本合同自己的目标优先于其服务等级的目标；留空的优先级仍沿用服务等级的目标。</translation>
    </message>
</context>
<context>
    <name>StatementPanel</name>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="65"/>
        <source>%1 draft #%2</source>
        <translation>%1 草稿 #%2</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="35"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="33"/>
        <source>Choose a statement</source>
        <translation>请选择账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="34"/>
        <source>Contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="145"/>
        <source>Credit note</source>
        <translation>红字账单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="145"/>
        <source>Credit note %1 issued for %2.</source>
        <translation>已开具红字账单 %1，金额 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="82"/>
        <source>Credit notes: %1</source>
        <translation>红字账单：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="44"/>
        <source>Credit note…</source>
        <translation>红字账单…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="78"/>
        <source>Credits %1</source>
        <translation>冲销 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="67"/>
        <source>Customer: %1</source>
        <translation>客户：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="34"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="75"/>
        <source>Fapiao no.: %1</source>
        <translation>发票号：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="170"/>
        <source>Fapiao number</source>
        <translation>发票号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="43"/>
        <source>Issue</source>
        <translation>开具</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="73"/>
        <source>Issued: %1</source>
        <translation>开具日期：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="125"/>
        <source>Issuing…</source>
        <translation>正在开具…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="68"/>
        <source>Period: %1</source>
        <translation>账期：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="47"/>
        <source>Preview / Print PDF…</source>
        <translation>预览 / 打印 PDF…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="34"/>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="80"/>
        <source>Reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="45"/>
        <source>Rebill credited lines</source>
        <translation>重新计费已冲销条目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="161"/>
        <source>Rebilled %1 line(s) on %2.</source>
        <translation>已在 %2 上重新计费 %1 个条目。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="164"/>
        <source>Rebilling…</source>
        <translation>正在重新计费…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="84"/>
        <source>Rebills %1</source>
        <translation>重开 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="46"/>
        <source>Record fapiao no.…</source>
        <translation>登记发票号…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="191"/>
        <source>Statement %1</source>
        <translation>账单 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="69"/>
        <source>Status: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="91"/>
        <source>Subtotal %1 · Tax %2 · &lt;b&gt;Total %3&lt;/b&gt;&lt;br&gt;Amount in words: &lt;b&gt;%4&lt;/b&gt;</source>
        <translation>小计 %1 · 税额 %2 · &lt;b&gt;合计 %3&lt;/b&gt;&lt;br&gt;大写金额：&lt;b&gt;%4&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="35"/>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="35"/>
        <source>Tax rate</source>
        <translation>税率</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="171"/>
        <source>The fapiao number issued for %1:</source>
        <translation>为 %1 开具的发票号：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="34"/>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="35"/>
        <source>Unit price</source>
        <translation>单价</translation>
    </message>
    <message>
        <location filename="../../ui/pages/billing/panel.py" line="160"/>
        <source>draft #%1</source>
        <translation>草稿 #%1</translation>
    </message>
</context>
<context>
    <name>TaxCodesButton</name>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="147"/>
        <source>Tax codes…</source>
        <translation>税收分类编码…</translation>
    </message>
</context>
<context>
    <name>TaxCodesDialog</name>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="90"/>
        <source>19 digits</source>
        <translation>19 位数字</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="71"/>
        <source>Code</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="72"/>
        <source>Item name</source>
        <translation>项目名称</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="71"/>
        <source>Kind of line</source>
        <translation>项目类别</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="87"/>
        <source>Metered electricity (electricity)</source>
        <translation>计量电费（electricity）</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="139"/>
        <source>Refused</source>
        <translation>操作被拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="72"/>
        <source>Short name (简称)</source>
        <translation>简称</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="72"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="64"/>
        <source>Tax codes (税收分类编码)</source>
        <translation>税收分类编码</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="67"/>
        <source>The fapiao export codes each line by its kind and VAT rate; a discount goes out under the line it reduces. Confirm each code with your tax office.</source>
        <translation>发票导出按项目类别和税率确定税收分类编码；折扣作为折扣行列在被折扣的项目之下。请与主管税务机关确认各编码。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/installsettings.py" line="71"/>
        <source>VAT rate</source>
        <translation>税率</translation>
    </message>
</context>
<context>
    <name>TicketPanel</name>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="319"/>
        <source> · escalated to level %1</source>
        <translation> · 已升级至第 %1 级</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="321"/>
        <source>%1 · %2 · customer %3 · contract %4 · assignee %5 · opened %6 · concerns %7</source>
        <translation>%1 · %2 · 客户 %3 · 合同 %4 · 处理人 %5 · 创建于 %6 · 涉及 %7</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="351"/>
        <source>(for the customer)</source>
        <translation>（对客户）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="332"/>
        <source>, due %1</source>
        <translation>，到期 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="330"/>
        <source>, paused %1 min</source>
        <translation>，暂停 %1 分钟</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="276"/>
        <source>Acknowledge</source>
        <translation>响应</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="345"/>
        <source>Assigned</source>
        <translation>已分派</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="345"/>
        <source>Attachment</source>
        <translation>附件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="257"/>
        <source>Choose a ticket</source>
        <translation>请选择工单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="282"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="435"/>
        <source>Down from – to (YYYY-MM-DD HH:MM – YYYY-MM-DD HH:MM; leave the end empty while it is still down):</source>
        <translation>停机起止（YYYY-MM-DD HH:MM – YYYY-MM-DD HH:MM；仍在停机则结束时间留空）：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="347"/>
        <source>Down hours</source>
        <translation>停机时长</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="346"/>
        <source>Escalated</source>
        <translation>已升级</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="278"/>
        <source>In progress</source>
        <translation>处理中</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="408"/>
        <source>New priority:</source>
        <translation>新优先级：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="269"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="396"/>
        <source>Note (internal):</source>
        <translation>备注（内部）：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="292"/>
        <source>Note…</source>
        <translation>备注…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="277"/>
        <source>On site</source>
        <translation>已到场</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="343"/>
        <source>Opened</source>
        <translation>已创建</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="408"/>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="292"/>
        <source>Priority…</source>
        <translation>优先级…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="434"/>
        <source>Record down hours</source>
        <translation>记录停机时长</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="294"/>
        <source>Record down hours…</source>
        <translation>记录停机时长…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="422"/>
        <source>Reopen</source>
        <translation>重新打开</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="293"/>
        <source>Reopen…</source>
        <translation>重新打开…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="386"/>
        <source>Resolve</source>
        <translation>解决</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="281"/>
        <source>Resolve…</source>
        <translation>解决…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="346"/>
        <source>SLA breach</source>
        <translation>SLA 超时</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="279"/>
        <source>Waiting for customer</source>
        <translation>等待客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="280"/>
        <source>Waiting for vendor</source>
        <translation>等待厂商</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="269"/>
        <source>What</source>
        <translation>事项</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="387"/>
        <source>What was done (the customer reads it):</source>
        <translation>处理结果（客户可见）：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="269"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="269"/>
        <source>Who</source>
        <translation>操作人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="422"/>
        <source>Why is it reopened:</source>
        <translation>重新打开的原因：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="412"/>
        <source>Why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/queue.py" line="444"/>
        <source>Write the times as YYYY-MM-DD HH:MM</source>
        <translation>时间请写成 YYYY-MM-DD HH:MM</translation>
    </message>
</context>
<context>
    <name>TopologyView</name>
    <message>
        <location filename="../../ui/pages/clusters/topology.py" line="150"/>
        <source>%1 — spines → leaves → nodes</source>
        <translation>%1 — 脊交换机 → 叶交换机 → 节点</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/topology.py" line="139"/>
        <source>Choose a cluster</source>
        <translation>请选择一个集群</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/topology.py" line="52"/>
        <source>GPUs %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/topology.py" line="42"/>
        <source>Held %1 until %2</source>
        <translation>预留单 %1，至 %2</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/topology.py" line="194"/>
        <source>Held → %1</source>
        <translation>已预留至 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/topology.py" line="237"/>
        <source>Tenant</source>
        <translation>租户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/topology.py" line="236"/>
        <source>maintenance</source>
        <translation>维护中</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/topology.py" line="52"/>
        <source>not offered: GPUs %1</source>
        <translation>不可提供：GPU %1</translation>
    </message>
</context>
<context>
    <name>TransitionDialog</name>
    <message>
        <location filename="../../ui/kit/forms.py" line="514"/>
        <source>%1 GPU(s), now: %2</source>
        <translation>%1 个 GPU，当前：%2</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="531"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="543"/>
        <source>Give a reason: it goes into the GPU's history and the audit trail.</source>
        <translation>请填写原因：它将记入 GPU 历史和审计日志。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="506"/>
        <source>Lifecycle move</source>
        <translation>生命周期变更</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="530"/>
        <source>Move</source>
        <translation>变更</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="521"/>
        <source>Move to</source>
        <translation>变更为</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="537"/>
        <source>No move is allowed from these states together.</source>
        <translation>所选状态之间没有共同允许的变更。</translation>
    </message>
    <message>
        <location filename="../../ui/kit/forms.py" line="524"/>
        <source>Reason *</source>
        <translation>原因 *</translation>
    </message>
</context>
<context>
    <name>UnlockButton</name>
    <message>
        <location filename="../../ui/pages/users.py" line="63"/>
        <source>%1 has %2 failed attempts in a row.</source>
        <translation>%1 已连续 %2 次登录失败。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/users.py" line="59"/>
        <source>%1 is locked until %2 after %3 failed attempts.</source>
        <translation>%1 因 %3 次登录失败被锁定至 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/users.py" line="65"/>
        <source>%1 is not locked.</source>
        <translation>%1 未被锁定。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/users.py" line="27"/>
        <source>Lifts the lock of the selected login after repeated failed attempts; the reason goes into the audit trail.</source>
        <translation>解除所选账号因多次登录失败而产生的锁定；原因将记入审计日志。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/users.py" line="50"/>
        <source>Refused</source>
        <translation>操作被拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/pages/users.py" line="40"/>
        <source>Select one user first.</source>
        <translation>请先选择一个用户。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/users.py" line="43"/>
        <source>Unlock %1</source>
        <translation>解除 %1 的锁定</translation>
    </message>
    <message>
        <location filename="../../ui/pages/users.py" line="22"/>
        <source>Unlock login…</source>
        <translation>解除登录锁定…</translation>
    </message>
</context>
<context>
    <name>UtilisationChart</name>
    <message>
        <location filename="../../ui/pages/clusters/utilisation.py" line="20"/>
        <source>Held</source>
        <translation>已预留</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/utilisation.py" line="39"/>
        <source>Held %1: %2 × %3 · %4, until %5</source>
        <translation>预留单 %1：%2 × %3 · %4，至 %5</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/utilisation.py" line="56"/>
        <source>No GPU is in a cluster yet</source>
        <translation>尚无 GPU 编入集群</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/utilisation.py" line="21"/>
        <source>Other (onboarding, burn-in, draining, maintenance)</source>
        <translation>其他（上线中、老化测试、排空中、维护中）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/clusters/utilisation.py" line="21"/>
        <source>Triage / RMA</source>
        <translation>故障诊断 / 返修</translation>
    </message>
</context>
<context>
    <name>VisitRequestDialog</name>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="39"/>
        <source>(choose the customer)</source>
        <translation>（请选择客户）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="56"/>
        <source>Add visitor</source>
        <translation>添加访客</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="108"/>
        <source>Cage %1</source>
        <translation>笼位 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="80"/>
        <source>Cage or racks</source>
        <translation>笼位或机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="50"/>
        <source>Company</source>
        <translation>单位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="78"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="70"/>
        <source>Escort needed</source>
        <translation>需要陪同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="84"/>
        <source>From</source>
        <translation>自</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="49"/>
        <source>ID number</source>
        <translation>证件号码</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="49"/>
        <source>ID type</source>
        <translation>证件类型</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="83"/>
        <source>Purpose</source>
        <translation>事由</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="108"/>
        <source>Rack %1</source>
        <translation>机柜 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="49"/>
        <source>Real name</source>
        <translation>真实姓名</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="56"/>
        <source>Remove visitor</source>
        <translation>删除访客</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="38"/>
        <source>Request a site visit</source>
        <translation>申请现场访问</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="79"/>
        <source>Requested by</source>
        <translation>申请人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="85"/>
        <source>To</source>
        <translation>至</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="81"/>
        <source>Visitors</source>
        <translation>访客</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="134"/>
        <source>a visit goes to one cage, or to racks outside a cage</source>
        <translation>一次访问只去一个笼位，或笼位之外的机柜</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="151"/>
        <source>choose the customer and which contact asks</source>
        <translation>请选择客户及申请的联系人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visitform.py" line="69"/>
        <source>e.g. install two servers in rack A05</source>
        <translation>例如：在 A05 机柜安装两台服务器</translation>
    </message>
</context>
<context>
    <name>VisitsTab</name>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="141"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="40"/>
        <source>All sites</source>
        <translation>全部数据中心</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="63"/>
        <source>Badge</source>
        <translation>门禁卡</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="72"/>
        <source>Badge number</source>
        <translation>门禁卡号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="73"/>
        <source>Check in</source>
        <translation>登记进入</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="75"/>
        <source>Check out</source>
        <translation>登记离开</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="166"/>
        <source>Choose a site first</source>
        <translation>请先选择数据中心</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="163"/>
        <source>Choose a visitor on site first</source>
        <translation>请先选择一位在场访客</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="161"/>
        <source>Choose an expected visitor first</source>
        <translation>请先选择一位预约访客</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="63"/>
        <source>Company</source>
        <translation>单位</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="62"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="219"/>
        <source>Daily visitor list %1</source>
        <translation>访客登记表 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="49"/>
        <source>Daily visitor list…</source>
        <translation>访客登记表…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="63"/>
        <source>Escort</source>
        <translation>陪同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="93"/>
        <source>Expected today</source>
        <translation>今日预约</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="84"/>
        <source>Expected today: the chosen visitor</source>
        <translation>今日预约：所选访客</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="62"/>
        <source>ID</source>
        <translation>证件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="62"/>
        <source>ID number</source>
        <translation>证件号码</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="64"/>
        <source>In</source>
        <translation>进入</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="137"/>
        <source>On site now: %1 visitor(s), %2 overstayed</source>
        <translation>当前在场：%1 人，超时 %2 人</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="64"/>
        <source>Overstay</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="41"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="43"/>
        <source>Request a visit…</source>
        <translation>申请访问…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="55"/>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="63"/>
        <source>Space</source>
        <translation>区域</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="66"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="77"/>
        <source>The visitor chosen above hands the badge back (Ctrl+O)</source>
        <translation>上方所选访客交还门禁卡（Ctrl+O）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="62"/>
        <source>Visit</source>
        <translation>申请单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="62"/>
        <source>Visitor</source>
        <translation>访客</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="63"/>
        <source>Window</source>
        <translation>时段</translation>
    </message>
    <message>
        <location filename="../../ui/pages/operations/visits.py" line="120"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
</context>
<context>
    <name>XconnectsPage</name>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="54"/>
        <source>Active from</source>
        <translation>开通日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="36"/>
        <source>All states</source>
        <translation>全部状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="173"/>
        <source>Choose a cross-connect first</source>
        <translation>请先选择一条交叉连接</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="53"/>
        <source>Circuit id</source>
        <translation>电路编号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="56"/>
        <source>Contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="52"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="52"/>
        <source>Customer port</source>
        <translation>客户端口</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="172"/>
        <source>Disconnected is final: order a new cross-connect</source>
        <translation>已拆除为终态：如需连接请重新下单</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="55"/>
        <source>Disconnected on</source>
        <translation>拆除日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="53"/>
        <source>Far end</source>
        <translation>对端</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="54"/>
        <source>Installed on</source>
        <translation>安装日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="104"/>
        <source>LOA PDF…</source>
        <translation>LOA 授权书 PDF…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="223"/>
        <source>LOA/CFA %1</source>
        <translation>授权委托书 %1</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="53"/>
        <source>Medium</source>
        <translation>介质</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="53"/>
        <source>Meet-me room</source>
        <translation>汇聚机房（MMR）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="102"/>
        <source>Move</source>
        <translation>变更</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="113"/>
        <source>Move to</source>
        <translation>变更为</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="206"/>
        <source>Moving the cross-connect…</source>
        <translation>正在变更交叉连接状态…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="110"/>
        <source>Open a ticket for this…</source>
        <translation>为此创建工单…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="43"/>
        <source>Order a cross-connect…</source>
        <translation>交叉连接下单…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="54"/>
        <source>Ordered on</source>
        <translation>下单日期</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="52"/>
        <source>Reference</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="41"/>
        <source>Reference, circuit id, customer or carrier</source>
        <translation>编号、电路编号、客户或运营商</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="42"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="48"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="98"/>
        <source>Work note (ticket, who patched it)</source>
        <translation>工作备注（工单号、跳纤人）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/xconnects.py" line="113"/>
        <source>on</source>
        <translation>日期</translation>
    </message>
</context>
<context>
    <name>Zoom</name>
    <message>
        <location filename="../../ui/widgets/zoom.py" line="31"/>
        <source>Fit to the window (Ctrl+0)</source>
        <translation>适应窗口（Ctrl+0）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/zoom.py" line="32"/>
        <source>Zoom in (Ctrl+wheel, Ctrl++)</source>
        <translation>放大（Ctrl+滚轮，Ctrl++）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/zoom.py" line="30"/>
        <source>Zoom out (Ctrl+wheel, Ctrl+-)</source>
        <translation>缩小（Ctrl+滚轮，Ctrl+-）</translation>
    </message>
</context>
<context>
    <name>_RackForm</name>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="42"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/rackforms.py" line="48"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>choices/Airflow</name>
    <message>
        <source>front-to-rear</source>
        <translation>前进后出</translation>
    </message>
    <message>
        <source>left-to-right</source>
        <translation>左进右出</translation>
    </message>
    <message>
        <source>mixed</source>
        <translation>混合</translation>
    </message>
    <message>
        <source>passive</source>
        <translation>被动</translation>
    </message>
    <message>
        <source>rear-to-front</source>
        <translation>后进前出</translation>
    </message>
    <message>
        <source>right-to-left</source>
        <translation>右进左出</translation>
    </message>
    <message>
        <source>side-to-rear</source>
        <translation>侧进后出</translation>
    </message>
</context>
<context>
    <name>choices/CableEnd</name>
    <message>
        <source>Front port</source>
        <translation>前端口</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>网络接口</translation>
    </message>
    <message>
        <source>Rear port</source>
        <translation>后端口</translation>
    </message>
</context>
<context>
    <name>choices/CableStatus</name>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Decommissioning</source>
        <translation>拆除中</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>规划中</translation>
    </message>
</context>
<context>
    <name>choices/CableType</name>
    <message>
        <source>Active optical cable</source>
        <translation>有源光缆</translation>
    </message>
    <message>
        <source>CAT5e</source>
        <translation>超五类网线</translation>
    </message>
    <message>
        <source>CAT6</source>
        <translation>六类网线</translation>
    </message>
    <message>
        <source>CAT6a</source>
        <translation>超六类网线</translation>
    </message>
    <message>
        <source>Direct attach copper (passive)</source>
        <translation>无源直连铜缆</translation>
    </message>
    <message>
        <source>Multimode fibre (OM3)</source>
        <translation>多模光纤 (OM3)</translation>
    </message>
    <message>
        <source>Multimode fibre (OM4)</source>
        <translation>多模光纤 (OM4)</translation>
    </message>
    <message>
        <source>Single-mode fibre (OS2)</source>
        <translation>单模光纤 (OS2)</translation>
    </message>
</context>
<context>
    <name>choices/CalendarMode</name>
    <message>
        <source>7×24</source>
        <translation>7×24</translation>
    </message>
    <message>
        <source>Business hours</source>
        <translation>工作时间</translation>
    </message>
</context>
<context>
    <name>choices/ContactChannel</name>
    <message>
        <source>E-mail</source>
        <translation>电子邮件</translation>
    </message>
    <message>
        <source>In person</source>
        <translation>现场</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>电话</translation>
    </message>
</context>
<context>
    <name>choices/ContractStatus</name>
    <message>
        <source>Active</source>
        <translation>履行中</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>已到期</translation>
    </message>
    <message>
        <source>Pending approval</source>
        <translation>待审批</translation>
    </message>
    <message>
        <source>Suspended</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Terminated</source>
        <translation>已终止</translation>
    </message>
</context>
<context>
    <name>choices/Cooling</name>
    <message>
        <source>Air</source>
        <translation>风冷</translation>
    </message>
    <message>
        <source>Liquid</source>
        <translation>液冷</translation>
    </message>
</context>
<context>
    <name>choices/CreditState</name>
    <message>
        <source>Approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>Proposed</source>
        <translation>待审批</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>已驳回</translation>
    </message>
</context>
<context>
    <name>choices/CustomerStatus</name>
    <message>
        <source>Active</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Inactive</source>
        <translation>停用</translation>
    </message>
</context>
<context>
    <name>choices/DepositKind</name>
    <message>
        <source>Deposit</source>
        <translation>押金</translation>
    </message>
    <message>
        <source>Prepayment</source>
        <translation>预付款</translation>
    </message>
</context>
<context>
    <name>choices/DeviceRole</name>
    <message>
        <source>Blank panel</source>
        <translation>盲板</translation>
    </message>
    <message>
        <source>Firewall</source>
        <translation>防火墙</translation>
    </message>
    <message>
        <source>GPU server</source>
        <translation>GPU 服务器</translation>
    </message>
    <message>
        <source>Hosted server</source>
        <translation>托管服务器</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>PDU</source>
        <translation>PDU 配电单元</translation>
    </message>
    <message>
        <source>Patch panel</source>
        <translation>配线架</translation>
    </message>
    <message>
        <source>Router</source>
        <translation>路由器</translation>
    </message>
    <message>
        <source>Shelf</source>
        <translation>托板</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Switch</source>
        <translation>交换机</translation>
    </message>
    <message>
        <source>UPS</source>
        <translation>UPS 不间断电源</translation>
    </message>
</context>
<context>
    <name>choices/DeviceStatus</name>
    <message>
        <source>Active</source>
        <translation>在用</translation>
    </message>
    <message>
        <source>Decommissioning</source>
        <translation>退役中</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>故障</translation>
    </message>
    <message>
        <source>Inventory</source>
        <translation>库存</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>离线</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>计划上架</translation>
    </message>
</context>
<context>
    <name>choices/Fabric</name>
    <message>
        <source>InfiniBand HDR (200 Gb/s)</source>
        <translation>InfiniBand HDR (200 Gb/s)</translation>
    </message>
    <message>
        <source>InfiniBand NDR (400 Gb/s)</source>
        <translation>InfiniBand NDR (400 Gb/s)</translation>
    </message>
    <message>
        <source>InfiniBand XDR (800 Gb/s)</source>
        <translation>InfiniBand XDR (800 Gb/s)</translation>
    </message>
    <message>
        <source>No fabric</source>
        <translation>无高速网络</translation>
    </message>
    <message>
        <source>RoCE (Ethernet RDMA)</source>
        <translation>RoCE（以太网 RDMA）</translation>
    </message>
</context>
<context>
    <name>choices/Face</name>
    <message>
        <source>Front</source>
        <translation>前面</translation>
    </message>
    <message>
        <source>Rear</source>
        <translation>后面</translation>
    </message>
</context>
<context>
    <name>choices/FapiaoStatus</name>
    <message>
        <source>Invoiced</source>
        <translation>已开票</translation>
    </message>
    <message>
        <source>Not invoiced</source>
        <translation>未开票</translation>
    </message>
    <message>
        <source>Partly invoiced</source>
        <translation>部分开票</translation>
    </message>
</context>
<context>
    <name>choices/FapiaoType</name>
    <message>
        <source>Digital ordinary fapiao</source>
        <translation>数电普票</translation>
    </message>
    <message>
        <source>Digital special VAT fapiao</source>
        <translation>数电专票</translation>
    </message>
    <message>
        <source>Paper fapiao</source>
        <translation>纸质发票</translation>
    </message>
</context>
<context>
    <name>choices/FormFactor</name>
    <message>
        <source>OAM</source>
        <translation>OAM</translation>
    </message>
    <message>
        <source>PCIe</source>
        <translation>PCIe</translation>
    </message>
    <message>
        <source>SXM</source>
        <translation>SXM</translation>
    </message>
</context>
<context>
    <name>choices/GpuState</name>
    <message>
        <source>Available</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>Burn-in</source>
        <translation>老化测试</translation>
    </message>
    <message>
        <source>Leased</source>
        <translation>已出租</translation>
    </message>
    <message>
        <source>Maintenance</source>
        <translation>维护中</translation>
    </message>
    <message>
        <source>Ordered</source>
        <translation>已订购</translation>
    </message>
    <message>
        <source>RMA</source>
        <translation>返修</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>已到货</translation>
    </message>
    <message>
        <source>Retired</source>
        <translation>已报废</translation>
    </message>
</context>
<context>
    <name>choices/HandsUrgency</name>
    <message>
        <source>Expedited</source>
        <translation>加急</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>预约</translation>
    </message>
    <message>
        <source>Standard</source>
        <translation>标准</translation>
    </message>
</context>
<context>
    <name>choices/HealthVendor</name>
    <message>
        <source>Huawei Ascend</source>
        <translation>华为昇腾</translation>
    </message>
    <message>
        <source>NVIDIA</source>
        <translation>NVIDIA（英伟达）</translation>
    </message>
</context>
<context>
    <name>choices/HoldStatus</name>
    <message>
        <source>Expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>Held</source>
        <translation>预留中</translation>
    </message>
    <message>
        <source>Moved to contract</source>
        <translation>已转合同</translation>
    </message>
    <message>
        <source>Released</source>
        <translation>已释放</translation>
    </message>
</context>
<context>
    <name>choices/IdType</name>
    <message>
        <source>Mainland travel permit (Hong Kong and Macao)</source>
        <translation>港澳居民来往内地通行证</translation>
    </message>
    <message>
        <source>Mainland travel permit (Taiwan)</source>
        <translation>台湾居民来往大陆通行证</translation>
    </message>
    <message>
        <source>Other ID</source>
        <translation>其他证件</translation>
    </message>
    <message>
        <source>Passport</source>
        <translation>护照</translation>
    </message>
    <message>
        <source>Resident ID card</source>
        <translation>居民身份证</translation>
    </message>
</context>
<context>
    <name>choices/ImpactLevel</name>
    <message>
        <source>Degraded</source>
        <translation>性能降级</translation>
    </message>
    <message>
        <source>No impact</source>
        <translation>无影响</translation>
    </message>
    <message>
        <source>Outage</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Reduced redundancy</source>
        <translation>冗余降低</translation>
    </message>
</context>
<context>
    <name>choices/ItemKind</name>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Cross-connect</source>
        <translation>交叉连接</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>折扣</translation>
    </message>
    <message>
        <source>GPU rental</source>
        <translation>算力租赁</translation>
    </message>
    <message>
        <source>Hosting</source>
        <translation>服务器托管</translation>
    </message>
    <message>
        <source>Maintenance</source>
        <translation>维保服务</translation>
    </message>
    <message>
        <source>One-off charge</source>
        <translation>一次性费用</translation>
    </message>
    <message>
        <source>Power circuits</source>
        <translation>电力回路</translation>
    </message>
    <message>
        <source>Rack lease</source>
        <translation>机柜租赁</translation>
    </message>
</context>
<context>
    <name>choices/LengthUnit</name>
    <message>
        <source>Centimetres</source>
        <translation>厘米</translation>
    </message>
    <message>
        <source>Feet</source>
        <translation>英尺</translation>
    </message>
    <message>
        <source>Inches</source>
        <translation>英寸</translation>
    </message>
    <message>
        <source>Metres</source>
        <translation>米</translation>
    </message>
</context>
<context>
    <name>choices/MaintenanceState</name>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Confirmed</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>Rescheduled</source>
        <translation>已改期</translation>
    </message>
    <message>
        <source>Tentative</source>
        <translation>待定</translation>
    </message>
</context>
<context>
    <name>choices/MaintenanceTarget</name>
    <message>
        <source>Cross-connect</source>
        <translation>交叉连接</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>PDU</source>
        <translation>PDU</translation>
    </message>
    <message>
        <source>Power feed</source>
        <translation>供电回路</translation>
    </message>
    <message>
        <source>Power panel</source>
        <translation>列头柜</translation>
    </message>
    <message>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>Room cooling</source>
        <translation>机房制冷</translation>
    </message>
    <message>
        <source>UPS</source>
        <translation>UPS</translation>
    </message>
</context>
<context>
    <name>choices/NodeState</name>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>Burn-in</source>
        <translation>老化测试</translation>
    </message>
    <message>
        <source>Draining</source>
        <translation>排空中</translation>
    </message>
    <message>
        <source>Onboarding</source>
        <translation>上线中</translation>
    </message>
    <message>
        <source>RMA</source>
        <translation>返修</translation>
    </message>
    <message>
        <source>Retired</source>
        <translation>已退役</translation>
    </message>
    <message>
        <source>Triage</source>
        <translation>故障诊断</translation>
    </message>
</context>
<context>
    <name>choices/NoteVisibility</name>
    <message>
        <source>For the customer</source>
        <translation>对客户</translation>
    </message>
    <message>
        <source>Internal</source>
        <translation>内部</translation>
    </message>
</context>
<context>
    <name>choices/Outcome</name>
    <message>
        <source>Failure</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
</context>
<context>
    <name>choices/PaymentKind</name>
    <message>
        <source>Receipt</source>
        <translation>收款</translation>
    </message>
    <message>
        <source>Reversal</source>
        <translation>冲销</translation>
    </message>
</context>
<context>
    <name>choices/PaymentMethod</name>
    <message>
        <source>Bank draft</source>
        <translation>银行汇票</translation>
    </message>
    <message>
        <source>Bank transfer</source>
        <translation>银行转账</translation>
    </message>
    <message>
        <source>Cash</source>
        <translation>现金</translation>
    </message>
    <message>
        <source>Cheque</source>
        <translation>支票</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>choices/PowerFeedStatus</name>
    <message>
        <source>Active</source>
        <translation>在用</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>故障</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>离线</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>规划中</translation>
    </message>
</context>
<context>
    <name>choices/PowerFeedType</name>
    <message>
        <source>Primary</source>
        <translation>主用</translation>
    </message>
    <message>
        <source>Redundant</source>
        <translation>冗余</translation>
    </message>
</context>
<context>
    <name>choices/PowerPhase</name>
    <message>
        <source>Single phase</source>
        <translation>单相</translation>
    </message>
    <message>
        <source>Three-phase</source>
        <translation>三相</translation>
    </message>
</context>
<context>
    <name>choices/PowerSide</name>
    <message>
        <source>A side</source>
        <translation>A 路</translation>
    </message>
    <message>
        <source>B side</source>
        <translation>B 路</translation>
    </message>
</context>
<context>
    <name>choices/PowerSupply</name>
    <message>
        <source>AC</source>
        <translation>交流</translation>
    </message>
    <message>
        <source>DC</source>
        <translation>直流</translation>
    </message>
</context>
<context>
    <name>choices/PriceProduct</name>
    <message>
        <source>Cross-connect</source>
        <translation>交叉连接</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU 算力</translation>
    </message>
    <message>
        <source>Power circuit</source>
        <translation>电力回路</translation>
    </message>
    <message>
        <source>Rack unit (U)</source>
        <translation>机位（U）</translation>
    </message>
    <message>
        <source>Whole rack</source>
        <translation>整机柜</translation>
    </message>
</context>
<context>
    <name>choices/PriceTerm</name>
    <message>
        <source>Hourly</source>
        <translation>按小时</translation>
    </message>
    <message>
        <source>Hybrid</source>
        <translation>混合计费</translation>
    </message>
    <message>
        <source>Monthly</source>
        <translation>包月</translation>
    </message>
    <message>
        <source>Yearly</source>
        <translation>包年</translation>
    </message>
</context>
<context>
    <name>choices/PriceUnit</name>
    <message>
        <source>hybrid (commit + hourly)</source>
        <translation>混合计费（保底 + 按小时）</translation>
    </message>
    <message>
        <source>one-off</source>
        <translation>一次性</translation>
    </message>
    <message>
        <source>per GPU-hour</source>
        <translation>按卡时</translation>
    </message>
    <message>
        <source>per GPU-minute</source>
        <translation>按卡分钟</translation>
    </message>
    <message>
        <source>per Mbps-month</source>
        <translation>按 Mbps·月</translation>
    </message>
    <message>
        <source>per kWh</source>
        <translation>按千瓦时</translation>
    </message>
    <message>
        <source>per month</source>
        <translation>按月</translation>
    </message>
    <message>
        <source>per year</source>
        <translation>按年</translation>
    </message>
</context>
<context>
    <name>choices/QuoteStatus</name>
    <message>
        <source>Accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>Withdrawn</source>
        <translation>已撤回</translation>
    </message>
</context>
<context>
    <name>choices/RackStatus</name>
    <message>
        <source>Available</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Decommissioned</source>
        <translation>已拆除</translation>
    </message>
    <message>
        <source>Leased</source>
        <translation>已出租</translation>
    </message>
    <message>
        <source>Maintenance</source>
        <translation>维护中</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>规划中</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>已预留</translation>
    </message>
</context>
<context>
    <name>choices/RedundancyState</name>
    <message>
        <source>No feeds</source>
        <translation>无供电回路</translation>
    </message>
    <message>
        <source>Not redundant: one side cannot carry the load</source>
        <translation>冗余不足：单路无法承载</translation>
    </message>
    <message>
        <source>One side only</source>
        <translation>仅单路供电</translation>
    </message>
    <message>
        <source>Redundant</source>
        <translation>冗余满足</translation>
    </message>
</context>
<context>
    <name>choices/RemoteTask</name>
    <message>
        <source>Escort</source>
        <translation>陪同</translation>
    </message>
    <message>
        <source>Inspect and photograph</source>
        <translation>巡检拍照</translation>
    </message>
    <message>
        <source>Install equipment</source>
        <translation>设备上架</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Patch, move or remove a cable</source>
        <translation>跳线/移线/拆线</translation>
    </message>
    <message>
        <source>Reboot or power-cycle</source>
        <translation>重启/断电重启</translation>
    </message>
    <message>
        <source>Receive and unpack a shipment</source>
        <translation>收货拆箱</translation>
    </message>
    <message>
        <source>Remove equipment</source>
        <translation>设备下架</translation>
    </message>
</context>
<context>
    <name>choices/ReservationStatus</name>
    <message>
        <source>Active</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>已结束</translation>
    </message>
</context>
<context>
    <name>choices/Role</name>
    <message>
        <source>Account manager</source>
        <translation>客户经理</translation>
    </message>
    <message>
        <source>Administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <source>Auditor</source>
        <translation>审计员</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>运维</translation>
    </message>
</context>
<context>
    <name>choices/ScaleUpKind</name>
    <message>
        <source>HCCS (Ascend)</source>
        <translation>HCCS（昇腾）</translation>
    </message>
    <message>
        <source>NVL72 (rack-scale NVLink)</source>
        <translation>NVL72（机柜级 NVLink）</translation>
    </message>
    <message>
        <source>NVLink (in one server)</source>
        <translation>NVLink（服务器内）</translation>
    </message>
</context>
<context>
    <name>choices/ServiceLevel</name>
    <message>
        <source>On-site team</source>
        <translation>驻场团队</translation>
    </message>
    <message>
        <source>Partner service</source>
        <translation>合作伙伴服务</translation>
    </message>
    <message>
        <source>Remote support</source>
        <translation>远程支持</translation>
    </message>
</context>
<context>
    <name>choices/SiteStatus</name>
    <message>
        <source>Active</source>
        <translation>运营中</translation>
    </message>
    <message>
        <source>Decommissioning</source>
        <translation>退役中</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>规划中</translation>
    </message>
    <message>
        <source>Retired</source>
        <translation>已退役</translation>
    </message>
</context>
<context>
    <name>choices/SlaMetric</name>
    <message>
        <source>Acknowledge</source>
        <translation>响应</translation>
    </message>
    <message>
        <source>Arrive on site</source>
        <translation>到场</translation>
    </message>
    <message>
        <source>Resolve</source>
        <translation>解决</translation>
    </message>
</context>
<context>
    <name>choices/SlaState</name>
    <message>
        <source>Breached</source>
        <translation>已超时</translation>
    </message>
    <message>
        <source>Due soon</source>
        <translation>即将超时</translation>
    </message>
    <message>
        <source>Met</source>
        <translation>已达成</translation>
    </message>
    <message>
        <source>On time</source>
        <translation>正常</translation>
    </message>
</context>
<context>
    <name>choices/StatementKind</name>
    <message>
        <source>Credit note</source>
        <translation>红字账单</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>对账单</translation>
    </message>
</context>
<context>
    <name>choices/StatementStatus</name>
    <message>
        <source>Draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>Issued</source>
        <translation>已开具</translation>
    </message>
    <message>
        <source>Void</source>
        <translation>已作废</translation>
    </message>
</context>
<context>
    <name>choices/SwitchTier</name>
    <message>
        <source>Leaf</source>
        <translation>叶交换机</translation>
    </message>
    <message>
        <source>Spine</source>
        <translation>脊交换机</translation>
    </message>
</context>
<context>
    <name>choices/TaxCategory</name>
    <message>
        <source>Equipment leasing</source>
        <translation>设备租赁</translation>
    </message>
    <message>
        <source>IDC services</source>
        <translation>IDC 服务</translation>
    </message>
    <message>
        <source>Value-added telecom</source>
        <translation>增值电信</translation>
    </message>
</context>
<context>
    <name>choices/TicketKind</name>
    <message>
        <source>Inbound shipment</source>
        <translation>到货签收</translation>
    </message>
    <message>
        <source>Incident</source>
        <translation>故障</translation>
    </message>
    <message>
        <source>Remote hands</source>
        <translation>远程协助</translation>
    </message>
    <message>
        <source>Service request</source>
        <translation>服务请求</translation>
    </message>
    <message>
        <source>Site visit</source>
        <translation>进场访问</translation>
    </message>
</context>
<context>
    <name>choices/TicketObjectType</name>
    <message>
        <source>Circuit</source>
        <translation>电路</translation>
    </message>
    <message>
        <source>Cross-connect</source>
        <translation>交叉连接</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Power feed</source>
        <translation>电源馈线</translation>
    </message>
    <message>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>U range or cage lease</source>
        <translation>U位/笼位租用</translation>
    </message>
</context>
<context>
    <name>choices/TicketPriority</name>
    <message>
        <source>P1 service down</source>
        <translation>P1 业务中断</translation>
    </message>
    <message>
        <source>P2 degraded</source>
        <translation>P2 性能下降</translation>
    </message>
    <message>
        <source>P3 component, redundancy left</source>
        <translation>P3 部件故障（冗余仍在）</translation>
    </message>
    <message>
        <source>P4 request</source>
        <translation>P4 请求</translation>
    </message>
</context>
<context>
    <name>choices/TicketState</name>
    <message>
        <source>Acknowledged</source>
        <translation>已响应</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>On site</source>
        <translation>已到场</translation>
    </message>
    <message>
        <source>Resolved</source>
        <translation>已解决</translation>
    </message>
    <message>
        <source>Waiting for customer</source>
        <translation>等待客户</translation>
    </message>
    <message>
        <source>Waiting for vendor</source>
        <translation>等待厂商</translation>
    </message>
</context>
<context>
    <name>choices/VisitState</name>
    <message>
        <source>Approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>已结束</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>已驳回</translation>
    </message>
    <message>
        <source>Requested</source>
        <translation>待审批</translation>
    </message>
</context>
<context>
    <name>choices/XconnectMedium</name>
    <message>
        <source>Copper</source>
        <translation>铜缆</translation>
    </message>
    <message>
        <source>Multi-mode fibre</source>
        <translation>多模光纤</translation>
    </message>
    <message>
        <source>Single-mode fibre</source>
        <translation>单模光纤</translation>
    </message>
</context>
<context>
    <name>choices/XconnectPeer</name>
    <message>
        <source>Another customer</source>
        <translation>其他客户</translation>
    </message>
    <message>
        <source>Carrier</source>
        <translation>运营商</translation>
    </message>
    <message>
        <source>Cloud on-ramp</source>
        <translation>云接入</translation>
    </message>
</context>
<context>
    <name>choices/XconnectState</name>
    <message>
        <source>Active</source>
        <translation>已开通</translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation>已拆除</translation>
    </message>
    <message>
        <source>Installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <source>Ordered</source>
        <translation>已下单</translation>
    </message>
</context>
<context>
    <name>columns</name>
    <message>
        <source>Account manager</source>
        <translation>客户经理</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Action code</source>
        <translation>操作代码</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Asset tag</source>
        <translation>资产标签</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>Contracts</source>
        <translation>合同</translation>
    </message>
    <message>
        <source>Cooling</source>
        <translation>制冷</translation>
    </message>
    <message>
        <source>Cost (CNY)</source>
        <translation>成本（元）</translation>
    </message>
    <message>
        <source>Credit code</source>
        <translation>统一社会信用代码</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Face</source>
        <translation>朝向</translation>
    </message>
    <message>
        <source>Failed logins</source>
        <translation>失败次数</translation>
    </message>
    <message>
        <source>Fapiao no.</source>
        <translation>发票号</translation>
    </message>
    <message>
        <source>Free (U)</source>
        <translation>空闲（U）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 卡</translation>
    </message>
    <message>
        <source>Height (U)</source>
        <translation>高度（U）</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>所在服务器</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Locked until</source>
        <translation>锁定至</translation>
    </message>
    <message>
        <source>Login</source>
        <translation>登录名</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>型号</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>No.</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Object type</source>
        <translation>对象类型</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>账期</translation>
    </message>
    <message>
        <source>Position (U)</source>
        <translation>位置（U）</translation>
    </message>
    <message>
        <source>Power (kW)</source>
        <translation>功率（kW）</translation>
    </message>
    <message>
        <source>Purchased</source>
        <translation>购置日期</translation>
    </message>
    <message>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>Racks</source>
        <translation>机柜数</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Room</source>
        <translation>机房</translation>
    </message>
    <message>
        <source>Serial</source>
        <translation>序列号</translation>
    </message>
    <message>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <source>Sites</source>
        <translation>站点</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>槽位</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Statements</source>
        <translation>账单</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Subsidiary</source>
        <translation>子公司</translation>
    </message>
    <message>
        <source>Subtotal</source>
        <translation>小计</translation>
    </message>
    <message>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>价税合计</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>型号</translation>
    </message>
    <message>
        <source>Type code</source>
        <translation>类型代码</translation>
    </message>
    <message>
        <source>Used (%)</source>
        <translation>使用率（%）</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Warranty end</source>
        <translation>保修截止</translation>
    </message>
</context>
<context>
    <name>dialogs</name>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="271"/>
        <source>%1 (%2) may not %3; this needs the role: %4</source>
        <translation>%1（%2）无权%3；需要角色：%4</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="80"/>
        <source>Choose from the calendar</source>
        <translation>从日历中选择</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="297"/>
        <source>The operation failed: %1</source>
        <translation>操作失败：%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="73"/>
        <source>YYYY-MM-DD (empty: none)</source>
        <translation>YYYY-MM-DD（留空表示无）</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="52"/>
        <source>a year from %1 to %2</source>
        <translation>年份须在 %1 至 %2 之间</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="50"/>
        <source>no such day: %1</source>
        <translation>没有这一天：%1</translation>
    </message>
    <message>
        <location filename="../../ui/kit/dialogs.py" line="46"/>
        <source>not a date: type it as YYYY-MM-DD</source>
        <translation>不是日期：请按 YYYY-MM-DD 输入</translation>
    </message>
</context>
<context>
    <name>forms</name>
    <message>
        <source>Account manager</source>
        <translation>客户经理</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Asset tag</source>
        <translation>资产标签</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>Cooling</source>
        <translation>制冷</translation>
    </message>
    <message>
        <source>Cost (CNY)</source>
        <translation>成本（元）</translation>
    </message>
    <message>
        <source>Credit code</source>
        <translation>统一社会信用代码</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Depreciation (months)</source>
        <translation>折旧（月）</translation>
    </message>
    <message>
        <source>Face</source>
        <translation>朝向</translation>
    </message>
    <message>
        <source>Grid column</source>
        <translation>网格列</translation>
    </message>
    <message>
        <source>Grid row</source>
        <translation>网格行</translation>
    </message>
    <message>
        <source>Height (U)</source>
        <translation>高度（U）</translation>
    </message>
    <message>
        <source>Latitude</source>
        <translation>纬度</translation>
    </message>
    <message>
        <source>Login</source>
        <translation>登录名</translation>
    </message>
    <message>
        <source>Longitude</source>
        <translation>经度</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>型号</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Position (U)</source>
        <translation>位置（U）</translation>
    </message>
    <message>
        <source>Power capacity (kW)</source>
        <translation>电力容量（kW）</translation>
    </message>
    <message>
        <source>Purchased</source>
        <translation>购置日期</translation>
    </message>
    <message>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Room</source>
        <translation>机房</translation>
    </message>
    <message>
        <source>Serial</source>
        <translation>序列号</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Subsidiary</source>
        <translation>子公司</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>型号</translation>
    </message>
    <message>
        <source>Warranty end</source>
        <translation>保修截止</translation>
    </message>
</context>
<context>
    <name>import</name>
    <message>
        <location filename="../../ui/kit/importdialog.py" line="45"/>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
</context>
<context>
    <name>kinds</name>
    <message>
        <source>Audit event</source>
        <translation>审计事件</translation>
    </message>
    <message>
        <source>Contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>Site</source>
        <translation>机房</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>账单</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../../ui/shell/main.py" line="156"/>
        <source>%1

Check the database in the settings.</source>
        <translation>%1

请在设置中检查数据库。</translation>
    </message>
    <message>
        <location filename="../../ui/shell/main.py" line="155"/>
        <source>Cannot open the database</source>
        <translation>无法打开数据库</translation>
    </message>
    <message>
        <location filename="../../ui/shell/main.py" line="152"/>
        <source>Database is newer than this console</source>
        <translation>数据库版本高于本控制台</translation>
    </message>
    <message>
        <location filename="../../ui/shell/main.py" line="204"/>
        <source>Loading the demo data…</source>
        <translation>正在加载演示数据…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/main.py" line="145"/>
        <source>Preparing the database (backup and schema upgrade)…</source>
        <translation>正在准备数据库（备份并升级结构）…</translation>
    </message>
    <message>
        <location filename="../../ui/shell/main.py" line="244"/>
        <source>The audit trail was changed outside the program</source>
        <translation>审计日志在程序之外被更改</translation>
    </message>
</context>
<context>
    <name>messages</name>
    <message>
        <source> in %1</source>
        <translation>，%1</translation>
    </message>
    <message>
        <source> in one fabric</source>
        <translation>，同一网络（Fabric）内</translation>
    </message>
    <message>
        <source> in one scale-up domain</source>
        <translation>，同一 Scale-up 域内</translation>
    </message>
    <message>
        <source> in one site</source>
        <translation>，同一机房内</translation>
    </message>
    <message>
        <source>%1 %2 does not exist (it may have been deleted by someone else)</source>
        <translation>%1 %2 不存在（可能已被他人删除）</translation>
    </message>
    <message>
        <source>%1 came in at %2: out after that</source>
        <translation>%1 于 %2 入场：离场时间须在此之后</translation>
    </message>
    <message>
        <source>%1 cannot work tickets: assign an active operator or administrator</source>
        <translation>%1 不能处理工单：请指派在职的运维人员或管理员</translation>
    </message>
    <message>
        <source>%1 does not lease cage %2 from %3 to %4: a visit goes only to the customer's own space</source>
        <translation>%1 在 %3 至 %4 期间未租用笼位 %2：来访只能进入客户自己租用的空间</translation>
    </message>
    <message>
        <source>%1 does not lease rack %2 from %3 to %4: a visit goes only to the customer's own space</source>
        <translation>%1 在 %3 至 %4 期间未租用机柜 %2：来访只能进入客户自己租用的空间</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 h after it started</source>
        <translation>已开始 %1 小时</translation>
    </message>
    <message>
        <source>%1 has more decimals than allowed here: at most %2 decimals</source>
        <translation>%1 的小数位过多：此处最多 %2 位小数</translation>
    </message>
    <message>
        <source>%1 has more decimals than allowed here: at most two decimals (to the fen)</source>
        <translation>%1 的小数位过多：金额最多两位小数（到分）</translation>
    </message>
    <message>
        <source>%1 has more decimals than allowed here: no decimals</source>
        <translation>%1 的小数位过多：此处只能填写整数</translation>
    </message>
    <message>
        <source>%1 is %2 KB; a ticket keeps files up to %3 KB (setting ticket_attachment_max_kb): make the photo smaller or ask an administrator</source>
        <translation>%1 大小为 %2 KB；工单附件最大 %3 KB（设置项 ticket_attachment_max_kb）：请缩小照片或联系管理员</translation>
    </message>
    <message>
        <source>%1 is %2: it can move to %3, not to %4</source>
        <translation>%1 当前为“%2”：可变为 %3，不能变为“%4”</translation>
    </message>
    <message>
        <source>%1 is %2: it cannot become %3</source>
        <translation>%1 当前为“%2”：不能变为“%3”</translation>
    </message>
    <message>
        <source>%1 is %2: it cannot become %3 (allowed: %4)</source>
        <translation>%1 当前为“%2”：不能变为“%3”（可变为：%4）</translation>
    </message>
    <message>
        <source>%1 is %2: only a resolved or closed ticket is reopened</source>
        <translation>%1 当前为“%2”：只有已解决或已关闭的工单才能重新打开</translation>
    </message>
    <message>
        <source>%1 is %2: only a tentative or confirmed window is rescheduled</source>
        <translation>%1 当前为“%2”：只有待定或已确认的维护窗口可以改期</translation>
    </message>
    <message>
        <source>%1 is %2: only an approved visit is let in (an administrator approves it)</source>
        <translation>%1 当前为“%2”：只有已批准的来访才能入场（由管理员审批）</translation>
    </message>
    <message>
        <source>%1 is already %2</source>
        <translation>%1 已经是 %2</translation>
    </message>
    <message>
        <source>%1 is another account manager's customer: they request its visits</source>
        <translation>%1 是其他客户经理的客户：应由其客户经理申请来访</translation>
    </message>
    <message>
        <source>%1 is closed</source>
        <translation>%1 已关闭</translation>
    </message>
    <message>
        <source>%1 is empty</source>
        <translation>%1 是空文件</translation>
    </message>
    <message>
        <source>%1 is for %2 – %3: %4 cannot be let in at %5</source>
        <translation>%1 的来访时段为 %2 – %3：%4 不能在 %5 入场</translation>
    </message>
    <message>
        <source>%1 is in the future: give the time it happened</source>
        <translation>%1 在未来：请填写实际发生的时间</translation>
    </message>
    <message>
        <source>%1 is inactive; reactivate the customer first</source>
        <translation>%1 已停用；请先重新启用该客户</translation>
    </message>
    <message>
        <source>%1 is not a contact of %2</source>
        <translation>%1 不是 %2 的联系人</translation>
    </message>
    <message>
        <source>%1 is not a holiday-cn year file (JSON with "year" and "days"): %2</source>
        <translation>%1 不是 holiday-cn 年度文件（含 “year” 和 “days” 的 JSON）：%2</translation>
    </message>
    <message>
        <source>%1 is not a priority: P1 to P4</source>
        <translation>%1 不是优先级：须为 P1 至 P4</translation>
    </message>
    <message>
        <source>%1 is not a service level: one of %2</source>
        <translation>%1 不是服务等级：须为以下之一：%2</translation>
    </message>
    <message>
        <source>%1 is not an Excel workbook (.xlsx) (%2); save it from Excel as .xlsx, or as CSV</source>
        <translation>%1 不是 Excel 工作簿（.xlsx）（%2）；请在 Excel 中另存为 .xlsx 或 CSV</translation>
    </message>
    <message>
        <source>%1 is not authorised for %2 (that cage) from %3 to %4: an administrator authorises the customer's contacts first (visit authorise)</source>
        <translation>%1 在 %3 至 %4 期间未获准进入 %2（该笼位）：请管理员先为客户联系人授权（visit authorise）</translation>
    </message>
    <message>
        <source>%1 is not authorised for %2 from %3 to %4: an administrator authorises the customer's contacts first (visit authorise)</source>
        <translation>%1 在 %3 至 %4 期间未获准进入 %2：请管理员先为客户联系人授权（visit authorise）</translation>
    </message>
    <message>
        <source>%1 is not in the list of regions (GB/T 2260, county level and above); check the code, or import the regions that have it</source>
        <translation>%1 不在地区列表中（GB/T 2260，县级及以上）；请检查代码，或导入包含它的地区</translation>
    </message>
    <message>
        <source>%1 is resolved: reopen it (with a reason) to work on it again</source>
        <translation>%1 已解决：如需继续处理，请重新打开（并说明原因）</translation>
    </message>
    <message>
        <source>%1 is still tentative: confirm it (the customers get notice) first</source>
        <translation>%1 仍为待定：请先确认（客户将收到通知）</translation>
    </message>
    <message>
        <source>%1 is too large: at most %2 digits before the decimal point</source>
        <translation>%1 过大：小数点前最多 %2 位</translation>
    </message>
    <message>
        <source>%1 names no GPU or server: add the object that was down to record its downtime</source>
        <translation>%1 未关联 GPU 或服务器：请先添加停机的对象，再记录停机时间</translation>
    </message>
    <message>
        <source>%1 starts %2, %3 from now; planned maintenance is noticed at least %4 h before it starts (setting %5). Reschedule it later, or plan it as emergency maintenance with a reason.</source>
        <translation>%1 于 %2 开始，距现在 %3；计划维护须至少提前 %4 小时通知（设置项 %5）。请改期到更晚的时间，或作为紧急维护并说明原因。</translation>
    </message>
    <message>
        <source>%1 was checked in at %2 already</source>
        <translation>%1 已于 %2 登记入场</translation>
    </message>
    <message>
        <source>%1 was checked out at %2 already</source>
        <translation>%1 已于 %2 登记离场</translation>
    </message>
    <message>
        <source>%1 was never checked in</source>
        <translation>%1 未曾登记入场</translation>
    </message>
    <message>
        <source>%1 was resolved on %2, more than %3 days ago: open a new ticket that refers to it</source>
        <translation>%1 已于 %2 解决，已超过 %3 天：请新开一张工单并引用它</translation>
    </message>
    <message>
        <source>%1 × %2 (%3)</source>
        <translation>%1 × %2（%3）</translation>
    </message>
    <message>
        <source>%1 × %2 in %3 (%4)</source>
        <translation>%3（%4）%1 × %2</translation>
    </message>
    <message>
        <source>%1 × %2 in %3 (%4, no fabric)</source>
        <translation>%3（%4，无高速网络）%1 × %2</translation>
    </message>
    <message>
        <source>%1 × %2 in %3 (hold %4 until %5)</source>
        <translation>%3 的 %1 × %2（预留单 %4，至 %5）</translation>
    </message>
    <message>
        <source>%1 × %2%3%4 %5 cannot be offered: at most %6 GPUs are free%7%4, %8 short%9%10%11</source>
        <translation>%1 × %2%3%4（%5）无法满足：最多 %6 张 GPU 空闲%7%4，缺 %8 张%9%10%11</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
    <message>
        <source>%1: the time to resolve is at least the time to acknowledge</source>
        <translation>%1：解决时限不得短于响应时限</translation>
    </message>
    <message>
        <source>'%1' is not a %2 of the calendar</source>
        <translation>“%1”不是日历上存在的日期</translation>
    </message>
    <message>
        <source>'%1' is not a %2: use YYYY-MM-DD</source>
        <translation>“%1”不是有效日期：请按 YYYY-MM-DD 填写</translation>
    </message>
    <message>
        <source>'%1' is not a %2: use YYYY-MM-DD (as text)</source>
        <translation>“%1”不是有效日期：请按 YYYY-MM-DD 填写（文本）</translation>
    </message>
    <message>
        <source>'%1' is not a number</source>
        <translation>“%1”不是数字</translation>
    </message>
    <message>
        <source>'%1' is not a number: write digits, e.g. 1234.5 or 1,234.5</source>
        <translation>“%1”不是数字：请写数字，例如 1234.5 或 1,234.5</translation>
    </message>
    <message>
        <source>'%1' is not a phone number</source>
        <translation>“%1”不是有效的电话号码</translation>
    </message>
    <message>
        <source>'%1' is not a port: ports are numbered from 1 (or named, e.g. 12A)</source>
        <translation>“%1”不是端口：端口从 1 开始编号（或命名，例如 12A）</translation>
    </message>
    <message>
        <source>'%1' is not a region code: GB/T 2260 codes have six digits, e.g. 460108</source>
        <translation>“%1”不是地区代码：GB/T 2260 代码为六位数字，例如 460108</translation>
    </message>
    <message>
        <source>'%1' is not an amount: write digits, e.g. 1234.50 or ¥1,234.50</source>
        <translation>“%1”不是金额：请写数字，例如 1234.50 或 ¥1,234.50</translation>
    </message>
    <message>
        <source>'%1' is not an e-mail address</source>
        <translation>“%1”不是有效的电子邮箱地址</translation>
    </message>
    <message>
        <source>'%1' is out of range: dates run from 2000-01-01 to 2099-12-31</source>
        <translation>“%1”超出范围：日期须在 2000-01-01 至 2099-12-31 之间</translation>
    </message>
    <message>
        <source>8-GPU training</source>
        <translation>8 卡训练机型</translation>
    </message>
    <message>
        <source>; held: %1</source>
        <translation>；已预留：%1</translation>
    </message>
    <message>
        <source>; nearest free capacity: %1</source>
        <translation>；最近的空闲资源：%1</translation>
    </message>
    <message>
        <source>; no node of that model is free anywhere in the window</source>
        <translation>；该时段内任何地方都没有该型号的空闲节点</translation>
    </message>
    <message>
        <source>; under maintenance: %1</source>
        <translation>；维护中：%1</translation>
    </message>
    <message>
        <source>Acknowledged</source>
        <translation>已响应</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Confirmed</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>GPUs are counted in whole numbers</source>
        <translation>GPU 数量须为整数</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>On site</source>
        <translation>已到场</translation>
    </message>
    <message>
        <source>P1, P2, P3 or P4</source>
        <translation>P1、P2、P3 或 P4</translation>
    </message>
    <message>
        <source>Rescheduled</source>
        <translation>已改期</translation>
    </message>
    <message>
        <source>Resolved</source>
        <translation>已解决</translation>
    </message>
    <message>
        <source>SLA calendar</source>
        <translation>SLA 日历</translation>
    </message>
    <message>
        <source>SLA credit</source>
        <translation>SLA 赔付</translation>
    </message>
    <message>
        <source>Tentative</source>
        <translation>待定</translation>
    </message>
    <message>
        <source>Waiting for customer</source>
        <translation>等待客户</translation>
    </message>
    <message>
        <source>Waiting for vendor</source>
        <translation>等待厂商</translation>
    </message>
    <message>
        <source>a GPU item names a GPU model and quantity, or the GPUs themselves</source>
        <translation>GPU 项目须指定 GPU 型号和数量，或具体的 GPU</translation>
    </message>
    <message>
        <source>a UPS is named within its site: give the site</source>
        <translation>UPS 按站点命名：请指定站点</translation>
    </message>
    <message>
        <source>a cable joins two ports; both ends are port %1 of the same device</source>
        <translation>线缆连接两个端口；两端都是同一设备的端口 %1</translation>
    </message>
    <message>
        <source>a calendar is one of %1</source>
        <translation>日历模式须为以下之一：%1</translation>
    </message>
    <message>
        <source>a contact needs a name</source>
        <translation>联系人须填写姓名</translation>
    </message>
    <message>
        <source>a contact of the ticket's customer</source>
        <translation>须为工单所属客户的联系人</translation>
    </message>
    <message>
        <source>a contract has a start and an end date</source>
        <translation>合同须有开始和结束日期</translation>
    </message>
    <message>
        <source>a contract needs at least one item</source>
        <translation>合同至少需要一个项目</translation>
    </message>
    <message>
        <source>a contract of the ticket's customer</source>
        <translation>须为工单所属客户的合同</translation>
    </message>
    <message>
        <source>a password has at least 8 characters</source>
        <translation>密码至少 8 个字符</translation>
    </message>
    <message>
        <source>a rack lease names an existing rack or a cage</source>
        <translation>机柜租赁须指定已有的机柜或笼位</translation>
    </message>
    <message>
        <source>a scheduled task needs the time the customer asked for</source>
        <translation>预约任务须填写客户要求的时间</translation>
    </message>
    <message>
        <source>a unified social credit code cannot contain %1 (I, O, S, V and Z are never used)</source>
        <translation>统一社会信用代码不能包含 %1（不使用 I、O、S、V、Z）</translation>
    </message>
    <message>
        <source>a unified social credit code has 18 characters, this one has %1</source>
        <translation>统一社会信用代码应为 18 位，此处为 %1 位</translation>
    </message>
    <message>
        <source>a unit range runs from U1 upwards and ends at or after its start</source>
        <translation>U 位范围从 U1 起，结束 U 位不得小于起始 U 位</translation>
    </message>
    <message>
        <source>a whole number of minutes above 0 (at most a year)</source>
        <translation>须为大于 0 的整数分钟（最多一年）</translation>
    </message>
    <message>
        <source>an aware time (UTC or Asia/Shanghai)</source>
        <translation>请给出带时区的时间（UTC 或北京时间）</translation>
    </message>
    <message>
        <source>an inbound shipment needs the carrier and the tracking number</source>
        <translation>到货工单须填写承运商和运单号</translation>
    </message>
    <message>
        <source>an object is one of: %1</source>
        <translation>对象须为以下之一：%1</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>attachment</source>
        <translation>附件</translation>
    </message>
    <message>
        <source>badge %1 is with %2, still on site: hand over another badge</source>
        <translation>门禁卡 %1 在 %2 手中，其仍在场内：请发放另一张门禁卡</translation>
    </message>
    <message>
        <source>bandwidth priced per Mbps names the Mbps</source>
        <translation>按 Mbps 计价的带宽须填写 Mbps</translation>
    </message>
    <message>
        <source>before the ticket's last event (%1): the timeline only moves on</source>
        <translation>早于工单的最后一条记录（%1）：时间线只能向后</translation>
    </message>
    <message>
        <source>business hours name at least one weekday, e.g. 'mon 09:00-18:00; tue 09:00-18:00'</source>
        <translation>工作时间须至少包含一个工作日，例如 'mon 09:00-18:00; tue 09:00-18:00'</translation>
    </message>
    <message>
        <source>business hours: %1</source>
        <translation>工作时间：%1</translation>
    </message>
    <message>
        <source>cage</source>
        <translation>笼位</translation>
    </message>
    <message>
        <source>cage %1 is not at site %2</source>
        <translation>笼位 %1 不在站点 %2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>cannot be negative</source>
        <translation>不能为负数</translation>
    </message>
    <message>
        <source>cannot read %1: a cell on line %2 is longer than %3 characters</source>
        <translation>无法读取 %1：第 %2 行有单元格超过 %3 个字符</translation>
    </message>
    <message>
        <source>circuit</source>
        <translation>电路</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>已结束</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>confirmed</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>contact</source>
        <translation>联系人</translation>
    </message>
    <message>
        <source>contract</source>
        <translation>合同</translation>
    </message>
    <message>
        <source>contract item</source>
        <translation>合同项目</translation>
    </message>
    <message>
        <source>credit code %1 belongs to another customer</source>
        <translation>信用代码 %1 已属于另一客户</translation>
    </message>
    <message>
        <source>cross-connect</source>
        <translation>交叉连接</translation>
    </message>
    <message>
        <source>customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <source>day %1 of the file: each day has a name, a date (YYYY-MM-DD) of %2 and isOffDay</source>
        <translation>文件第 %1 天：每一天须有名称、%2 年内的日期（YYYY-MM-DD）和 isOffDay</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>downtime record</source>
        <translation>停机记录</translation>
    </message>
    <message>
        <source>emergency maintenance says why it cannot wait for the notice period</source>
        <translation>紧急维护须说明为何不能等待通知期</translation>
    </message>
    <message>
        <source>ends before the service starts</source>
        <translation>早于服务开始日期结束</translation>
    </message>
    <message>
        <source>feed</source>
        <translation>供电回路</translation>
    </message>
    <message>
        <source>feed %1 of this panel has a %2 A breaker; a panel cannot be smaller than its feeds (give at least %3 A, or change the feeds first)</source>
        <translation>此配电柜的馈线 %1 的断路器为 %2 A；配电柜不能小于其馈线（至少 %3 A，或先修改馈线）</translation>
    </message>
    <message>
        <source>from %1 to %2</source>
        <translation>%1 至 %2</translation>
    </message>
    <message>
        <source>from %1, open-ended</source>
        <translation>自 %1 起，不定期</translation>
    </message>
    <message>
        <source>give both the power allowance (kW) and the price per kWh over it, or neither</source>
        <translation>请同时填写电力额度（kW）和超出部分的每千瓦时价格，或都不填</translation>
    </message>
    <message>
        <source>give the end as a date and time (Asia/Shanghai)</source>
        <translation>请填写结束的日期和时间（北京时间）</translation>
    </message>
    <message>
        <source>give the start as a date and time (Asia/Shanghai)</source>
        <translation>请填写开始的日期和时间（北京时间）</translation>
    </message>
    <message>
        <source>give when the visit starts (date and time)</source>
        <translation>请填写来访开始时间（日期和时间）</translation>
    </message>
    <message>
        <source>hosting names a rack unit range or a device</source>
        <translation>托管须指定机柜 U 位范围或设备</translation>
    </message>
    <message>
        <source>in progress</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>internal or customer</source>
        <translation>须为内部或客户可见</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>is required: an amount of money, e.g. 1234.50</source>
        <translation>必填：金额，例如 1234.50</translation>
    </message>
    <message>
        <source>lease</source>
        <translation>租用</translation>
    </message>
    <message>
        <source>longer than %1 characters (%2); shorten it</source>
        <translation>超过 %1 个字符（%2）；请缩短</translation>
    </message>
    <message>
        <source>maintenance window</source>
        <translation>维护窗口</translation>
    </message>
    <message>
        <source>must be greater than zero</source>
        <translation>必须大于零</translation>
    </message>
    <message>
        <source>name at least one visitor (real name and ID)</source>
        <translation>请至少填写一名访客（真实姓名和证件）</translation>
    </message>
    <message>
        <source>name the cage or the racks to visit</source>
        <translation>请指定要进入的笼位或机柜</translation>
    </message>
    <message>
        <source>name the window as MW-000123 or its id</source>
        <translation>请以 MW-000123 或其编号指定维护窗口</translation>
    </message>
    <message>
        <source>name what is worked on</source>
        <translation>请指定维护对象</translation>
    </message>
    <message>
        <source>no power panel of that site is behind a UPS named '%1'</source>
        <translation>该站点没有配电柜由名为“%1”的 UPS 供电</translation>
    </message>
    <message>
        <source>no such contract</source>
        <translation>没有该合同</translation>
    </message>
    <message>
        <source>no such customer</source>
        <translation>没有该客户</translation>
    </message>
    <message>
        <source>no such user</source>
        <translation>没有该用户</translation>
    </message>
    <message>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>none (closed)</source>
        <translation>无（已关闭）</translation>
    </message>
    <message>
        <source>notification</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>on-call shift</source>
        <translation>值班班次</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>须为以下之一：%1</translation>
    </message>
    <message>
        <source>open a ticket from one of: %1</source>
        <translation>只能从以下对象开单：%1</translation>
    </message>
    <message>
        <source>pick the remote-hands task from the catalogue</source>
        <translation>请从目录中选择远程协助任务</translation>
    </message>
    <message>
        <source>power feed</source>
        <translation>供电回路</translation>
    </message>
    <message>
        <source>power panel</source>
        <translation>列头柜</translation>
    </message>
    <message>
        <source>price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>rack</source>
        <translation>机柜</translation>
    </message>
    <message>
        <source>region</source>
        <translation>地区</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已驳回</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>待审批</translation>
    </message>
    <message>
        <source>rescheduled</source>
        <translation>已改期</translation>
    </message>
    <message>
        <source>reservation</source>
        <translation>预留</translation>
    </message>
    <message>
        <source>room</source>
        <translation>机房</translation>
    </message>
    <message>
        <source>say in a few words what is wrong or wanted</source>
        <translation>请用几句话说明故障或需求</translation>
    </message>
    <message>
        <source>say what the visit is for (e.g. install two servers in rack A05)</source>
        <translation>请说明来访事由（例如在 A05 机柜安装两台服务器）</translation>
    </message>
    <message>
        <source>say what the work is (e.g. 'UPS-A battery replacement')</source>
        <translation>请说明维护内容（例如“UPS-A 更换电池”）</translation>
    </message>
    <message>
        <source>say what was done to resolve it (the customer reads it)</source>
        <translation>请说明解决方法（客户可见）</translation>
    </message>
    <message>
        <source>say why it is reopened</source>
        <translation>请说明重新打开的原因</translation>
    </message>
    <message>
        <source>say why the access ends (e.g. the engineer left the company)</source>
        <translation>请说明取消授权的原因（例如该工程师已离职）</translation>
    </message>
    <message>
        <source>say why the priority changes</source>
        <translation>请说明调整优先级的原因</translation>
    </message>
    <message>
        <source>say why the visit is cancelled</source>
        <translation>请说明取消来访的原因</translation>
    </message>
    <message>
        <source>say why the visit is refused (the customer is told)</source>
        <translation>请说明驳回来访的原因（将告知客户）</translation>
    </message>
    <message>
        <source>say why the work is cancelled (the customers were told of it)</source>
        <translation>请说明取消维护的原因（客户已收到通知）</translation>
    </message>
    <message>
        <source>say why the work moves</source>
        <translation>请说明改期的原因</translation>
    </message>
    <message>
        <source>site</source>
        <translation>站点</translation>
    </message>
    <message>
        <source>site access</source>
        <translation>站点授权</translation>
    </message>
    <message>
        <source>subsidiary</source>
        <translation>子公司</translation>
    </message>
    <message>
        <source>targets belong to a service level or to one contract, not both</source>
        <translation>目标属于一个服务等级或一份合同，不能同时属于两者</translation>
    </message>
    <message>
        <source>tentative</source>
        <translation>待定</translation>
    </message>
    <message>
        <source>that access was revoked at %1 already</source>
        <translation>该授权已于 %1 取消</translation>
    </message>
    <message>
        <source>that device is not a PDU plugged into a feed (`power pdu` attaches it)</source>
        <translation>该设备不是接入供电回路的 PDU（用 `power pdu` 接入）</translation>
    </message>
    <message>
        <source>the account manager must be a user with that role</source>
        <translation>客户经理须为具有该角色的用户</translation>
    </message>
    <message>
        <source>the authorisation ends before it starts</source>
        <translation>授权的结束日期早于开始日期</translation>
    </message>
    <message>
        <source>the check character is wrong: %1 must end in %2, not %3</source>
        <translation>校验码错误：%1 的末位应为 %2，而不是 %3</translation>
    </message>
    <message>
        <source>the contract ends (%1) before it starts (%2)</source>
        <translation>合同结束日期（%1）早于开始日期（%2）</translation>
    </message>
    <message>
        <source>the current password is wrong</source>
        <translation>当前密码不正确</translation>
    </message>
    <message>
        <source>the customer's legal name is required</source>
        <translation>请填写客户的法定名称</translation>
    </message>
    <message>
        <source>the device is not in a rack: name its rack's site work instead</source>
        <translation>该设备不在机柜中：请改为对其所在机柜的站点作业</translation>
    </message>
    <message>
        <source>the disk is full (%1): nothing was written, the whole change was rolled back. Free some space and try again</source>
        <translation>磁盘已满（%1）：未写入任何内容，整个操作已回滚。请释放磁盘空间后重试</translation>
    </message>
    <message>
        <source>the fapiao number: 8 to 32 digits or letters (a 数电 fapiao has 20 digits)</source>
        <translation>发票号码：8 至 32 位数字或字母（数电发票为 20 位数字）</translation>
    </message>
    <message>
        <source>the file names no days: a year's schedule lists its holidays and make-up days</source>
        <translation>文件未列出任何日期：年度安排须列出节假日和调休上班日</translation>
    </message>
    <message>
        <source>the file's name</source>
        <translation>请填写文件名</translation>
    </message>
    <message>
        <source>the legal name is required</source>
        <translation>请填写法定名称</translation>
    </message>
    <message>
        <source>the new password is the same as the current one</source>
        <translation>新密码与当前密码相同</translation>
    </message>
    <message>
        <source>the number of the badge handed over</source>
        <translation>请填写发放的门禁卡号</translation>
    </message>
    <message>
        <source>the rack has %1U</source>
        <translation>该机柜只有 %1U</translation>
    </message>
    <message>
        <source>the racks or cage of one visit are at one site</source>
        <translation>一次来访的机柜或笼位须在同一站点</translation>
    </message>
    <message>
        <source>the unified social credit code is required</source>
        <translation>请填写统一社会信用代码</translation>
    </message>
    <message>
        <source>the visit ends after it starts</source>
        <translation>来访结束时间须晚于开始时间</translation>
    </message>
    <message>
        <source>the window ends after it starts</source>
        <translation>维护窗口的结束时间须晚于开始时间</translation>
    </message>
    <message>
        <source>the work started %1: it ends after that</source>
        <translation>维护于 %1 开始：结束时间须在此之后</translation>
    </message>
    <message>
        <source>there is no tax rate for %1 valid in %2, nor any rate for %1 on record; no screen adds one (they come with the database's upgrades): run db upgrade, or have the rate added to the database's tax_rate table</source>
        <translation>%2 没有适用于 %1 的税率，也没有登记任何 %1 税率；界面上无法添加税率（税率随数据库升级提供）：请运行 db upgrade，或请人在数据库的 tax_rate 表中添加该税率</translation>
    </message>
    <message>
        <source>there is no tax rate for %1 valid in %2; the rates on record start in %3 and no screen adds one (they come with the database's upgrades): use a date from %3 on, or have the rate added to the database's tax_rate table</source>
        <translation>%2 没有适用于 %1 的税率；已登记的税率自 %3 起生效，界面上无法添加税率（税率随数据库升级提供）：请使用 %3 及以后的日期，或请人在数据库的 tax_rate 表中添加该税率</translation>
    </message>
    <message>
        <source>ticket</source>
        <translation>工单</translation>
    </message>
    <message>
        <source>ticket %1 does not exist: give its number (T-2026-000123) or id</source>
        <translation>工单 %1 不存在：请给出工单号（T-2026-000123）或编号</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>visit</source>
        <translation>来访</translation>
    </message>
    <message>
        <source>visitor</source>
        <translation>访客</translation>
    </message>
    <message>
        <source>visitor %1 is not an authorised contact of %2: such visitors come escorted (ask for an escort)</source>
        <translation>访客 %1 不是 %2 的授权联系人：此类访客须有人陪同（请申请陪同）</translation>
    </message>
    <message>
        <source>visitor %1 is not authorised for %2 on those days: ask for an escort, or have the contact authorised first</source>
        <translation>访客 %1 在这些日期未获准进入 %2：请申请陪同，或先为该联系人授权</translation>
    </message>
    <message>
        <source>visitor %1: a resident ID number has 18 characters with a valid check digit; check it against the card</source>
        <translation>访客 %1：居民身份证号码为 18 位且校验位正确，请对照证件核对</translation>
    </message>
    <message>
        <source>visitor %1: at most 32 characters</source>
        <translation>访客 %1：证件号码最多 32 个字符</translation>
    </message>
    <message>
        <source>visitor %1: the ID number</source>
        <translation>访客 %1：请填写证件号码</translation>
    </message>
    <message>
        <source>visitor %1: the ID type is one of %2</source>
        <translation>访客 %1：证件类型须为以下之一：%2</translation>
    </message>
    <message>
        <source>visitor %1: the real name as on the ID</source>
        <translation>访客 %1：请填写与证件一致的真实姓名</translation>
    </message>
    <message>
        <source>what is worked on: %1</source>
        <translation>维护对象须为以下之一：%1</translation>
    </message>
    <message>
        <source>write the note</source>
        <translation>请填写备注内容</translation>
    </message>
    <message>
        <source>¥%1 is not the tax on ¥%2 at statement %3's rate (%4): expected %5; check the fapiao's 税额</source>
        <translation>¥%1 不是 ¥%2 按账单 %3 的税率（%4）计算的税额：应为 %5；请核对发票的税额</translation>
    </message>
</context>
<context>
    <name>operations</name>
    <message>
        <location filename="../../ui/shell/operations.py" line="372"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../ui/shell/operations.py" line="368"/>
        <source>Refused</source>
        <translation>操作被拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/shell/operations.py" line="373"/>
        <source>The operation failed: %1</source>
        <translation>操作失败：%1</translation>
    </message>
</context>
<context>
    <name>pdfpreview</name>
    <message>
        <location filename="../../ui/kit/pdfpreview.py" line="326"/>
        <source>Preparing the document…</source>
        <translation>正在准备文档…</translation>
    </message>
</context>
<context>
    <name>permissions</name>
    <message>
        <source>approve SLA credits</source>
        <translation>审批 SLA 服务赔偿</translation>
    </message>
    <message>
        <source>approve contracts</source>
        <translation>审批合同</translation>
    </message>
    <message>
        <source>approve site visits</source>
        <translation>审批现场访问</translation>
    </message>
    <message>
        <source>authorise customer contacts for site access</source>
        <translation>授权客户联系人进入数据中心</translation>
    </message>
    <message>
        <source>change GPUs</source>
        <translation>修改 GPU</translation>
    </message>
    <message>
        <source>change SLA calendars, targets and credit rules</source>
        <translation>修改 SLA 日历、时限和赔偿规则</translation>
    </message>
    <message>
        <source>change customers</source>
        <translation>修改客户</translation>
    </message>
    <message>
        <source>change rooms, racks and devices</source>
        <translation>修改机房、机柜和设备</translation>
    </message>
    <message>
        <source>change sites, subsidiaries and coverage</source>
        <translation>修改站点、子公司和覆盖范围</translation>
    </message>
    <message>
        <source>change the on-call rota</source>
        <translation>修改值班表</translation>
    </message>
    <message>
        <source>change the price list</source>
        <translation>修改价目表</translation>
    </message>
    <message>
        <source>check visitors in and out</source>
        <translation>办理访客进出登记</translation>
    </message>
    <message>
        <source>draft contracts</source>
        <translation>起草合同</translation>
    </message>
    <message>
        <source>import data</source>
        <translation>导入数据</translation>
    </message>
    <message>
        <source>manage users</source>
        <translation>管理用户</translation>
    </message>
    <message>
        <source>open tickets</source>
        <translation>创建工单</translation>
    </message>
    <message>
        <source>override the rack power budget</source>
        <translation>超出机柜功率预算</translation>
    </message>
    <message>
        <source>plan maintenance windows</source>
        <translation>计划维护窗口</translation>
    </message>
    <message>
        <source>request site visits</source>
        <translation>申请现场访问</translation>
    </message>
    <message>
        <source>reserve rack units</source>
        <translation>预留机柜 U 位</translation>
    </message>
    <message>
        <source>run billing and issue statements</source>
        <translation>运行计费并开具账单</translation>
    </message>
    <message>
        <source>see visitors' full ID numbers</source>
        <translation>查看访客完整证件号码</translation>
    </message>
    <message>
        <source>work tickets (acknowledge, move, resolve)</source>
        <translation>处理工单（响应、流转、解决）</translation>
    </message>
</context>
</TS>
