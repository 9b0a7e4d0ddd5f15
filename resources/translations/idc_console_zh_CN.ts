<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DashboardPage</name>
    <message>
        <location filename="../../ui/mainwindow.py" line="95"/>
        <source>Active contracts</source>
        <translation>生效合同</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="94"/>
        <source>Customers</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="92"/>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="96"/>
        <source>Ending in 30/60/90 days</source>
        <translation>30/60/90 天内到期</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="110"/>
        <source>GPU fleet by state: </source>
        <translation>GPU 按状态：</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="93"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="91"/>
        <source>Racks (leased)</source>
        <translation>机柜（已租）</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="90"/>
        <source>Sites</source>
        <translation>站点</translation>
    </message>
</context>
<context>
    <name>DashboardWidget</name>
    <message>
        <location filename="../../ui/widgets/charts.py" line="195"/>
        <source>%1: %2 of %3 U used in %4 racks</source>
        <translation>%1：%4 个机柜共 %3 U，已用 %2 U</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="218"/>
        <source>%1: %2 of %3 kW (%4%)</source>
        <translation>%1：%2 / %3 kW（%4%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="298"/>
        <source>%1: ¥%2 net, ¥%3 with tax</source>
        <translation>%1：不含税 ¥%2，含税 ¥%3</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/charts.py" line="145"/>
        <source>%n day(s)</source>
        <translation><numerusform>%n 天</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="283"/>
        <source>CNY</source>
        <translation>元</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="204"/>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="94"/>
        <source>Contracts ending</source>
        <translation>即将到期的合同</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="77"/>
        <source>GPU fleet by model and state</source>
        <translation>GPU 按型号和状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="247"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="261"/>
        <source>Net revenue (CNY)</source>
        <translation>不含税收入（元）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="77"/>
        <source>No GPUs yet</source>
        <translation>暂无 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="79"/>
        <source>No issued statements yet</source>
        <translation>暂无已开具账单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="149"/>
        <source>No live contract ends within 90 days.</source>
        <translation>90 天内没有到期的生效合同。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="74"/>
        <source>No racks yet</source>
        <translation>暂无机柜</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="76"/>
        <source>No sites yet</source>
        <translation>暂无站点</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="75"/>
        <source>Power: typical draw against capacity per site (kW)</source>
        <translation>各站点典型功耗与容量（kW）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="73"/>
        <source>Rack utilisation per site</source>
        <translation>各站点机柜使用率</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="78"/>
        <source>Revenue by month (issued statements, net of tax)</source>
        <translation>月度收入（已开具账单，不含税）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="147"/>
        <source>Soonest</source>
        <translation>最近到期</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="202"/>
        <source>Typical draw</source>
        <translation>典型功耗</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="180"/>
        <source>Units used (%)</source>
        <translation>已用 U 位（%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="112"/>
        <source>within %1 days</source>
        <translation>%1 天内</translation>
    </message>
</context>
<context>
    <name>FirstRunWizard</name>
    <message>
        <location filename="../../ui/startup.py" line="64"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="63"/>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="33"/>
        <source>Create the administrator</source>
        <translation>创建管理员</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="47"/>
        <source>Display name</source>
        <translation>显示名称</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="50"/>
        <source>Load the demo data (sites, racks, GPUs, customers, contracts)</source>
        <translation>加载演示数据（站点、机柜、GPU、客户、合同）</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="46"/>
        <source>Login</source>
        <translation>登录名</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="48"/>
        <source>Password (8+ characters)</source>
        <translation>密码（至少 8 位）</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="49"/>
        <source>Repeat password</source>
        <translation>确认密码</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="69"/>
        <source>The two passwords differ.</source>
        <translation>两次输入的密码不一致。</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="34"/>
        <source>This database has no users yet. The first user is the administrator.</source>
        <translation>该数据库还没有用户。第一个用户即为管理员。</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="29"/>
        <source>Welcome to the IDC console</source>
        <translation>欢迎使用 IDC 管理控制台</translation>
    </message>
</context>
<context>
    <name>FormDialog</name>
    <message>
        <location filename="../../ui/forms.py" line="225"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="208"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="365"/>
        <source>Changed by someone else</source>
        <translation>记录已被他人修改</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="199"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="173"/>
        <source>Edit %1</source>
        <translation>编辑%1</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="173"/>
        <source>New %1</source>
        <translation>新建%1</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="366"/>
        <source>Reload the record now? Your edits will be lost.</source>
        <translation>现在重新加载该记录？您的修改将丢失。</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="207"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="264"/>
        <source>This record no longer exists.</source>
        <translation>该记录已不存在。</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="317"/>
        <source>a number, e.g. 12.5</source>
        <translation>请输入数字，例如 12.5</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="309"/>
        <source>a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="293"/>
        <source>choose one of the listed entries</source>
        <translation>请从列表中选择</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="256"/>
        <source>leave empty to keep</source>
        <translation>留空则不修改</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="325"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>GpuDialog</name>
    <message>
        <location filename="../../ui/forms.py" line="225"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="208"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="365"/>
        <source>Changed by someone else</source>
        <translation>记录已被他人修改</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="199"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="173"/>
        <source>Edit %1</source>
        <translation>编辑%1</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="387"/>
        <source>From</source>
        <translation>原状态</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="401"/>
        <source>History (%1)</source>
        <translation>历史（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="173"/>
        <source>New %1</source>
        <translation>新建%1</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="388"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="366"/>
        <source>Reload the record now? Your edits will be lost.</source>
        <translation>现在重新加载该记录？您的修改将丢失。</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="207"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="264"/>
        <source>This record no longer exists.</source>
        <translation>该记录已不存在。</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="387"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="387"/>
        <source>To</source>
        <translation>新状态</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="388"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="317"/>
        <source>a number, e.g. 12.5</source>
        <translation>请输入数字，例如 12.5</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="309"/>
        <source>a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="293"/>
        <source>choose one of the listed entries</source>
        <translation>请从列表中选择</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="256"/>
        <source>leave empty to keep</source>
        <translation>留空则不修改</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="325"/>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../ui/importdialog.py" line="117"/>
        <source>%1 rows, %2 with problems (marked red). Fix the file and preview again; nothing is imported while a row is bad.</source>
        <translation>共 %1 行，其中 %2 行有问题（红色标出）。请修改文件后重新预览；存在错误行时不会导入任何数据。</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="121"/>
        <source>%1 rows, all good. Press Import to write them.</source>
        <translation>共 %1 行，全部正确。点击“导入”写入。</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="96"/>
        <source>Cannot read the file: %1</source>
        <translation>无法读取文件：%1</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="51"/>
        <source>Choose file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="70"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="68"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="48"/>
        <source>Import %1</source>
        <translation>导入%1</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="83"/>
        <source>Import file</source>
        <translation>导入文件</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="131"/>
        <source>Imported.</source>
        <translation>已导入。</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="143"/>
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="137"/>
        <source>Nothing was imported: %1 bad row(s). Preview again to see them.</source>
        <translation>未导入任何数据：%1 行有错误。请重新预览查看。</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="53"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="103"/>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../ui/importdialog.py" line="84"/>
        <source>Tables (*.csv *.xlsx);;All (*)</source>
        <translation>表格 (*.csv *.xlsx);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>ListPage</name>
    <message>
        <location filename="../../ui/listview.py" line="278"/>
        <source>%1 moved, %2 refused:</source>
        <translation>已变更 %1 个，拒绝 %2 个：</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="153"/>
        <source>%1 of %2</source>
        <translation>%1 / 共 %2</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="155"/>
        <source>%1 rows</source>
        <translation>共 %1 行</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="232"/>
        <source>A reason is required.</source>
        <translation>必须填写原因。</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="287"/>
        <source>Excel (*.xlsx);;CSV (*.csv)</source>
        <translation>Excel (*.xlsx);;CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="286"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="298"/>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="129"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="84"/>
        <source>Filter (Ctrl+F): code, name, serial, customer…</source>
        <translation>筛选（Ctrl+F）：编码、名称、序列号、客户…</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="131"/>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="128"/>
        <source>Lifecycle move…</source>
        <translation>生命周期变更…</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="280"/>
        <source>Moving GPUs…</source>
        <translation>正在变更 GPU 状态…</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="123"/>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="124"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="132"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="126"/>
        <source>Retire</source>
        <translation>退役</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="227"/>
        <source>Retire %1 selected record(s)? This is recorded in the audit trail.
Reason:</source>
        <translation>确定退役所选 %1 条记录？此操作将记入审计日志。
原因：</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="241"/>
        <source>Retiring…</source>
        <translation>正在退役…</translation>
    </message>
    <message>
        <location filename="../../ui/listview.py" line="277"/>
        <source>Some GPUs were not moved</source>
        <translation>部分 GPU 未变更</translation>
    </message>
</context>
<context>
    <name>LoginDialog</name>
    <message>
        <location filename="../../ui/startup.py" line="112"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="95"/>
        <source>Database: %1</source>
        <translation>数据库：%1</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="93"/>
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="102"/>
        <source>Login</source>
        <translation>登录名</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="123"/>
        <source>Login failed: unknown user, disabled account or wrong password.</source>
        <translation>登录失败：用户不存在、账号已停用或密码错误。</translation>
    </message>
    <message>
        <location filename="../../ui/startup.py" line="103"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <source>Billing</source>
        <translation>账单</translation>
    </message>
    <message>
        <source>Contracts</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="251"/>
        <source>Coverage</source>
        <translation>区域覆盖</translation>
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
        <location filename="../../ui/mainwindow.py" line="379"/>
        <source>Database: %1</source>
        <translation>数据库：%1</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="296"/>
        <source>Elevation</source>
        <translation>机柜立面</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="189"/>
        <source>IDC console</source>
        <translation>IDC 管理控制台</translation>
    </message>
    <message>
        <source>Racks</source>
        <translation>机柜</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="300"/>
        <source>Room</source>
        <translation>机房</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="352"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="251"/>
        <source>Site map</source>
        <translation>站点分布图</translation>
    </message>
    <message>
        <source>Sites &amp; coverage</source>
        <translation>站点与覆盖</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="381"/>
        <source>User: %1 (%2)</source>
        <translation>用户：%1（%2）</translation>
    </message>
    <message>
        <source>Users &amp; settings</source>
        <translation>用户与设置</translation>
    </message>
</context>
<context>
    <name>Operation</name>
    <message>
        <location filename="../../ui/operations.py" line="103"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/operations.py" line="103"/>
        <source>Working…</source>
        <translation>处理中…</translation>
    </message>
</context>
<context>
    <name>PdfPreviewDialog</name>
    <message>
        <location filename="../../ui/pdfpreview.py" line="119"/>
        <source>%1 cannot be shown: %2</source>
        <translation>无法显示 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="64"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="241"/>
        <source>Could not save: %1</source>
        <translation>无法保存：%1</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="58"/>
        <source>Fit width</source>
        <translation>适合宽度</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="51"/>
        <source>Next page</source>
        <translation>下一页</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="105"/>
        <source>Open in viewer…</source>
        <translation>用查看器打开…</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="234"/>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="50"/>
        <source>Previous page</source>
        <translation>上一页</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="63"/>
        <source>Print…</source>
        <translation>打印…</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="233"/>
        <source>Save PDF as</source>
        <translation>PDF 另存为</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="62"/>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="98"/>
        <source>The PDF preview needs Qt's PDF module (the PySide6_Pdf package). You can still save the document or open it in your PDF viewer.</source>
        <translation>PDF 预览需要 Qt 的 PDF 模块（PySide6_Pdf）。您仍可保存文档或用 PDF 查看器打开。</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="211"/>
        <source>The printer could not be started.</source>
        <translation>无法启动打印机。</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="59"/>
        <source>Whole page</source>
        <translation>整页</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="56"/>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="55"/>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location filename="../../ui/pdfpreview.py" line="150"/>
        <source>of %1</source>
        <translation>/ %1</translation>
    </message>
</context>
<context>
    <name>RackElevationView</name>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="360"/>
        <source>%1 · leased to %2</source>
        <translation>%1 · 租给 %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/rack_elevation.py" line="377"/>
        <source>%n U free</source>
        <translation><numerusform>空闲 %n U</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="343"/>
        <source>Choose a rack to see its elevation</source>
        <translation>选择机柜以查看立面图</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="459"/>
        <source>Fleet</source>
        <translation>自有</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="371"/>
        <source>Front</source>
        <translation>前面</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="435"/>
        <source>Not mounted (0U or no position): %1</source>
        <translation>未上架（0U 或无位置）：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="490"/>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="503"/>
        <source>Place a device at U%1 (%2)…</source>
        <translation>在 U%1（%2）放置设备…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="448"/>
        <source>Power: %1 of %2 kW typical (%3%)</source>
        <translation>功率：典型 %1 / %2 kW（%3%）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="371"/>
        <source>Rear</source>
        <translation>后面</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="505"/>
        <source>Reserve U%1 (%2)…</source>
        <translation>预留 U%1（%2）…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="509"/>
        <source>Reserve the free block U%1–U%2 (%3)…</source>
        <translation>预留空闲区段 U%1–U%2（%3）…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="408"/>
        <source>Reserved for %1, U%2–U%3, %4 to %5</source>
        <translation>为 %1 预留，U%2–U%3，%4 至 %5</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="411"/>
        <source>Reserved: %1</source>
        <translation>已预留：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="501"/>
        <source>front</source>
        <translation>前面</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="407"/>
        <source>open-ended</source>
        <translation>长期</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="501"/>
        <source>rear</source>
        <translation>后面</translation>
    </message>
</context>
<context>
    <name>RackPanel</name>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="582"/>
        <source>Move refused</source>
        <translation>移动被拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/rack_elevation.py" line="569"/>
        <source>The move failed: %1</source>
        <translation>移动失败：%1</translation>
    </message>
</context>
<context>
    <name>RegionTreeWidget</name>
    <message>
        <location filename="../../ui/widgets/region_tree.py" line="166"/>
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
</context>
<context>
    <name>RoomFloorView</name>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="133"/>
        <source>Choose a room to see its floor</source>
        <translation>选择机房以查看平面图</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="182"/>
        <source>Not on the floor plan:</source>
        <translation>不在平面图上：</translation>
    </message>
</context>
<context>
    <name>RoomView</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/room_view.py" line="270"/>
        <source>%1 / %2 — %n rack(s)</source>
        <translation><numerusform>%1 / %2 — %n 个机柜</numerusform></translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="290"/>
        <source>50–80%</source>
        <translation>50–80%</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="290"/>
        <source>80–95%</source>
        <translation>80–95%</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="291"/>
        <source>95% and over</source>
        <translation>95% 及以上</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="241"/>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="244"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="242"/>
        <source>Utilisation</source>
        <translation>使用率</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="289"/>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/room_view.py" line="289"/>
        <source>under 50%</source>
        <translation>低于 50%</translation>
    </message>
</context>
<context>
    <name>SearchDialog</name>
    <message>
        <location filename="../../ui/mainwindow.py" line="140"/>
        <source>Rack, device, GPU serial, customer, contract, statement…</source>
        <translation>机柜、设备、GPU 序列号、客户、合同、账单…</translation>
    </message>
    <message>
        <location filename="../../ui/mainwindow.py" line="137"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/dbdialog.py" line="127"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="160"/>
        <source>Connected.</source>
        <translation>连接成功。</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="161"/>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="107"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="157"/>
        <source>Give a file or a URL first.</source>
        <translation>请先填写文件或地址。</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="98"/>
        <source>Keep the password in the system keyring</source>
        <translation>将密码保存在系统钥匙串中</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="74"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="123"/>
        <source>Language and database changes apply at the next start.</source>
        <translation>语言和数据库的更改将在下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="140"/>
        <source>New database</source>
        <translation>新建数据库</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="85"/>
        <source>New…</source>
        <translation>新建…</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="134"/>
        <source>Open database</source>
        <translation>打开数据库</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="84"/>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="122"/>
        <source>PDF font (TrueType)</source>
        <translation>PDF 字体（TrueType）</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="110"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="77"/>
        <source>PostgreSQL server</source>
        <translation>PostgreSQL 服务器</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="134"/>
        <source>SQLite (*.db *.sqlite);;All (*)</source>
        <translation>SQLite (*.db *.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="140"/>
        <source>SQLite (*.db)</source>
        <translation>SQLite (*.db)</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="76"/>
        <source>SQLite file</source>
        <translation>SQLite 文件</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="126"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="63"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="70"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="100"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="172"/>
        <source>The system keyring is not available (%1); the password was not stored.</source>
        <translation>系统钥匙串不可用（%1），密码未保存。</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="109"/>
        <source>URL</source>
        <translation>地址</translation>
    </message>
    <message>
        <location filename="../../ui/dbdialog.py" line="121"/>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
</context>
<context>
    <name>SitePlotView</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/site_plot.py" line="171"/>
        <source> and %n more</source>
        <translation><numerusform> 等 %n 个</numerusform></translation>
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
        <location filename="../../ui/widgets/site_plot.py" line="206"/>
        <source>solid line: the region's own point; dashed: its city's or province capital's</source>
        <translation>实线：区域自身位置；虚线：所在城市或省会位置</translation>
    </message>
</context>
<context>
    <name>TransitionDialog</name>
    <message>
        <location filename="../../ui/forms.py" line="423"/>
        <source>%1 GPU(s), now: %2</source>
        <translation>%1 个 GPU，当前：%2</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="440"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="452"/>
        <source>Give a reason: it goes into the GPU's history and the audit trail.</source>
        <translation>请填写原因：它将记入 GPU 历史和审计日志。</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="415"/>
        <source>Lifecycle move</source>
        <translation>生命周期变更</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="439"/>
        <source>Move</source>
        <translation>变更</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="430"/>
        <source>Move to</source>
        <translation>变更为</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="446"/>
        <source>No move is allowed from these states together.</source>
        <translation>所选状态之间没有共同允许的变更。</translation>
    </message>
    <message>
        <location filename="../../ui/forms.py" line="433"/>
        <source>Reason *</source>
        <translation>原因 *</translation>
    </message>
</context>
<context>
    <name>choices</name>
    <message>
        <source>Account manager</source>
        <translation>客户经理</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <source>Air</source>
        <translation>风冷</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>Auditor</source>
        <translation>审计员</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Burn-in</source>
        <translation>压力测试</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Credit note</source>
        <translation>红字账单</translation>
    </message>
    <message>
        <source>Decommissioned</source>
        <translation>已拆除</translation>
    </message>
    <message>
        <source>Decommissioning</source>
        <translation>退役中</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>折扣</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>已结束</translation>
    </message>
    <message>
        <source>Equipment leasing</source>
        <translation>设备租赁</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>已到期</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>故障</translation>
    </message>
    <message>
        <source>Failure</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Front</source>
        <translation>前面</translation>
    </message>
    <message>
        <source>GPU rental</source>
        <translation>算力租赁</translation>
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
        <source>Hosting</source>
        <translation>托管</translation>
    </message>
    <message>
        <source>IDC services</source>
        <translation>IDC 服务</translation>
    </message>
    <message>
        <source>Inactive</source>
        <translation>停用</translation>
    </message>
    <message>
        <source>Inventory</source>
        <translation>库存</translation>
    </message>
    <message>
        <source>Issued</source>
        <translation>已开具</translation>
    </message>
    <message>
        <source>Leased</source>
        <translation>已出租</translation>
    </message>
    <message>
        <source>Liquid</source>
        <translation>液冷</translation>
    </message>
    <message>
        <source>Maintenance</source>
        <translation>维护中</translation>
    </message>
    <message>
        <source>OAM</source>
        <translation>OAM</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>离线</translation>
    </message>
    <message>
        <source>On-site team</source>
        <translation>驻场团队</translation>
    </message>
    <message>
        <source>One-off charge</source>
        <translation>一次性费用</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>运维</translation>
    </message>
    <message>
        <source>Ordered</source>
        <translation>已订购</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>PCIe</source>
        <translation>PCIe</translation>
    </message>
    <message>
        <source>Partner</source>
        <translation>合作伙伴</translation>
    </message>
    <message>
        <source>Pending approval</source>
        <translation>待审批</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>规划中</translation>
    </message>
    <message>
        <source>RMA</source>
        <translation>返修</translation>
    </message>
    <message>
        <source>Rack lease</source>
        <translation>机柜租赁</translation>
    </message>
    <message>
        <source>Rear</source>
        <translation>后面</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>已到货</translation>
    </message>
    <message>
        <source>Remote</source>
        <translation>远程</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>已预留</translation>
    </message>
    <message>
        <source>Retired</source>
        <translation>已退役</translation>
    </message>
    <message>
        <source>SXM</source>
        <translation>SXM</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>账单</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Suspended</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Switch</source>
        <translation>交换机</translation>
    </message>
    <message>
        <source>Terminated</source>
        <translation>已终止</translation>
    </message>
    <message>
        <source>Value-added telecom</source>
        <translation>增值电信</translation>
    </message>
    <message>
        <source>Void</source>
        <translation>已作废</translation>
    </message>
    <message>
        <source>front-to-rear</source>
        <translation>前进后出</translation>
    </message>
    <message>
        <source>hybrid (commit + hourly)</source>
        <translation>混合计费（保底 + 按小时）</translation>
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
        <source>one-off</source>
        <translation>一次性</translation>
    </message>
    <message>
        <source>passive</source>
        <translation>被动</translation>
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
        <source>Fapiao no.</source>
        <translation>发票号</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
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
        <translation>机柜</translation>
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
        <translation>站点</translation>
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
        <translation>合计</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>型号</translation>
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
        <location filename="../../ui/importdialog.py" line="38"/>
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
        <translation>站点</translation>
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
        <location filename="../../ui/main.py" line="84"/>
        <source>%1

Check the database in the settings.</source>
        <translation>%1

请在设置中检查数据库。</translation>
    </message>
    <message>
        <location filename="../../ui/main.py" line="83"/>
        <source>Cannot open the database</source>
        <translation>无法打开数据库</translation>
    </message>
    <message>
        <location filename="../../ui/main.py" line="81"/>
        <source>Database is newer than this console</source>
        <translation>数据库版本高于本控制台</translation>
    </message>
    <message>
        <location filename="../../ui/main.py" line="100"/>
        <source>Loading the demo data…</source>
        <translation>正在加载演示数据…</translation>
    </message>
    <message>
        <location filename="../../ui/main.py" line="76"/>
        <source>Preparing the database (backup and schema upgrade)…</source>
        <translation>正在准备数据库（备份并升级结构）…</translation>
    </message>
</context>
<context>
    <name>operations</name>
    <message>
        <location filename="../../ui/operations.py" line="169"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../ui/operations.py" line="166"/>
        <source>Refused</source>
        <translation>操作被拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/operations.py" line="170"/>
        <source>The operation failed: %1</source>
        <translation>操作失败：%1</translation>
    </message>
</context>
<context>
    <name>pdfpreview</name>
    <message>
        <location filename="../../ui/pdfpreview.py" line="290"/>
        <source>Preparing the document…</source>
        <translation>正在准备文档…</translation>
    </message>
</context>
</TS>
